"""Deserto: every rule of shared/rules/deserto.md by its id, the options, whole games,
unknown cards and the table interpreter.

A square is drawn as a picture: {"nw": ["oasis", "vizier"], "ne": ["brigand"]} is a
stack of an oasis under a vizier on the north-west cell and a brigand on the north-east
one; cells left out are empty and None is a card the camera could not recognise.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from referee.core import TURN_RULE, Header, Match, Move, Ruling, Verdict
from referee.games.deserto import CELLS, NEIGHBOURS, Deserto, DesertoState, DesertoTable
from referee.table import AskTable, Play, Press, TableView, TakeBack, ViewCard

GAME = Deserto()
Picture = Mapping[str, Sequence[str | None]]


def table(
    picture: Picture | None = None,
    *,
    seats: int = 2,
    to_play: int = 0,
    pile: int | None = None,
    hands: Sequence[int] | None = None,
    won: Sequence[int] | None = None,
    **options: Any,
) -> DesertoState:
    """A state with the square of `picture`, `to_play` to play, and the given counts."""
    names = tuple(f"seat{n}" for n in range(seats))
    state = GAME.setup(GAME.check_header(Header("deserto", names, to_play, options)))
    picture = picture or {}
    assert set(picture) <= set(CELLS), f"unknown cells in {picture}"
    return replace(
        state,
        stacks={cell: tuple(picture.get(cell, ())) for cell in CELLS},
        pile=state.pile if pile is None else pile,
        hands=state.hands if hands is None else tuple(hands),
        won=state.won if won is None else tuple(won),
    )


def picture_of(state: DesertoState) -> dict[str, list[str | None]]:
    """The square of `state` drawn as a picture (empty cells left out)."""
    return {cell: list(stack) for cell, stack in state.stacks.items() if stack}


def place(seat: int, cell: str, card: str | None) -> Move:
    return Move(seat, "place", {"cell": cell, "card": card})


def stuck(seat: int) -> Move:
    return Move(seat, "stuck")


def judge(state: DesertoState, move: Move) -> Verdict:
    return GAME.judge(state, move)


def play(state: DesertoState, move: Move) -> tuple[Verdict, DesertoState]:
    return GAME.judge(state, move), GAME.apply(state, move)


#: A complete square with every top different from its neighbours' enemies.
FULL: Picture = {"nw": ["oasis"], "ne": ["vizier"], "sw": ["treasure"], "se": ["oasis"]}


# -- DES-FORM ------------------------------------------------------------------------


@pytest.mark.parametrize("cell", CELLS)
def test_form_the_first_card_anchors_the_square_anywhere(cell: str) -> None:
    assert judge(table(), place(0, cell, "brigand")).ok


@pytest.mark.parametrize(
    ("picture", "cell"),
    [
        ({"nw": ["oasis"]}, "ne"),
        ({"nw": ["oasis"]}, "sw"),
        ({"se": ["oasis"]}, "ne"),
        ({"nw": ["oasis"], "ne": ["vizier"]}, "se"),
        ({"nw": ["oasis"], "se": ["oasis"]}, "ne"),
        ({"nw": ["oasis"], "ne": ["oasis"], "sw": ["oasis"]}, "se"),
    ],
    ids=["right-of", "below", "above", "under-second", "between-diagonals", "fourth"],
)
def test_form_an_empty_cell_next_to_the_square_is_legal(picture: Picture, cell: str) -> None:
    verdict = judge(table(picture), place(0, cell, "oasis"))
    assert verdict.ok and verdict.rules == ()


@pytest.mark.parametrize(
    ("picture", "cell"),
    [({"nw": ["oasis"]}, "se"), ({"ne": ["vizier"]}, "sw"), ({"sw": ["oasis"]}, "ne")],
    ids=["nw-se", "ne-sw", "sw-ne"],
)
def test_form_a_diagonal_only_cell_is_illegal(picture: Picture, cell: str) -> None:
    verdict = judge(table(picture), place(0, cell, "oasis"))
    assert not verdict.ok
    assert verdict.rules == ("DES-FORM",)
    assert "diagonal" in verdict.message


@pytest.mark.parametrize(
    "picture", [{}, {"nw": ["oasis"]}, FULL], ids=["empty", "one-card", "full-square"]
)
def test_form_a_card_beside_the_square_is_illegal(picture: Picture) -> None:
    verdict = judge(table(picture), place(0, "off", "oasis"))
    assert verdict.rules == ("DES-FORM",)
    assert "outside the 2x2 square" in verdict.message


def test_form_a_card_beside_the_square_is_counted_as_a_stray() -> None:
    _, after = play(table({"nw": ["oasis"]}), place(0, "off", "vizier"))
    assert after.strays == 1
    assert picture_of(after) == {"nw": ["oasis"]}
    assert after.hands == (3, 3) and after.pile == 51 - 6 - 1, "the card left the hand"


# -- DES-STACK-FULL ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "card"),
    [("nw", "treasure"), ("ne", "oasis"), ("sw", "vizier"), ("se", "vizier")],
)
def test_stack_full_stacking_on_a_complete_square_is_legal(cell: str, card: str) -> None:
    verdict, after = play(table(FULL), place(0, cell, card))
    assert verdict.ok, verdict.message
    assert after.stacks[cell] == (*FULL[cell], card)


@pytest.mark.parametrize(
    "picture",
    [
        {"nw": ["oasis"]},
        {"nw": ["oasis"], "ne": ["vizier"]},
        {"nw": ["oasis"], "ne": ["vizier"], "sw": ["treasure"]},
    ],
    ids=["1-occupied", "2-occupied", "3-occupied"],
)
def test_stack_full_stacking_before_the_square_is_complete_is_illegal(picture: Picture) -> None:
    verdict = judge(table(picture), place(0, "nw", "vizier"))
    assert verdict.rules == ("DES-STACK-FULL",)
    empty = 4 - len(picture)
    assert (f"{empty} cells still empty" if empty > 1 else "1 cell still empty") in verdict.message


def test_stack_full_after_a_capture_the_square_must_be_refilled_first() -> None:
    # The vizier on se takes the brigand on ne: ne is empty again.
    picture = {"nw": ["oasis"], "ne": ["brigand"], "sw": ["oasis"], "se": ["oasis"]}
    _, after = play(table(picture), place(0, "se", "vizier"))
    assert after.stacks["ne"] == ()
    assert judge(after, place(1, "nw", "treasure")).rules == ("DES-STACK-FULL",)
    assert judge(after, place(1, "ne", "treasure")).ok


# -- DES-NO-BRIGAND-BY-VIZIER / DES-NO-TREASURE-BY-BRIGAND -----------------------------

ENEMY_CASES = [
    # (rule, picture, cell, card)
    ("DES-NO-BRIGAND-BY-VIZIER", {"nw": ["vizier"]}, "ne", "brigand"),
    ("DES-NO-BRIGAND-BY-VIZIER", {"nw": ["vizier"]}, "sw", "brigand"),
    ("DES-NO-BRIGAND-BY-VIZIER", FULL, "nw", "brigand"),
    ("DES-NO-BRIGAND-BY-VIZIER", FULL, "se", "brigand"),
    ("DES-NO-TREASURE-BY-BRIGAND", {"se": ["brigand"]}, "ne", "treasure"),
    ("DES-NO-TREASURE-BY-BRIGAND", {"se": ["brigand"]}, "sw", "treasure"),
    (
        "DES-NO-TREASURE-BY-BRIGAND",
        {"nw": ["oasis"], "ne": ["brigand"], "sw": ["oasis"], "se": ["oasis"]},
        "nw",
        "treasure",
    ),
]


@pytest.mark.parametrize(
    ("rule", "picture", "cell", "card"),
    ENEMY_CASES,
    ids=[
        "brigand-right-of-vizier",
        "brigand-below-vizier",
        "brigand-stacked-next-to-vizier",
        "brigand-stacked-below-vizier",
        "treasure-above-brigand",
        "treasure-left-of-brigand",
        "treasure-stacked-next-to-brigand",
    ],
)
def test_enemy_next_to_its_hunter_is_illegal(
    rule: str, picture: Picture, cell: str, card: str
) -> None:
    verdict = judge(table(picture), place(0, cell, card))
    assert verdict.rules == (rule,)


@pytest.mark.parametrize(
    ("picture", "cell", "card"),
    [
        (FULL, "sw", "brigand"),
        (
            {"nw": ["vizier", "oasis"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]},
            "ne",
            "brigand",
        ),
        (FULL, "ne", "brigand"),
        ({"nw": ["brigand"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]}, "se", "treasure"),
        (
            {"nw": ["brigand", "oasis"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]},
            "ne",
            "treasure",
        ),
        ({"nw": ["brigand"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]}, "nw", "treasure"),
        ({"nw": ["vizier"]}, "ne", "treasure"),
        ({"nw": ["treasure"]}, "ne", "vizier"),
    ],
    ids=[
        "brigand-diagonal-to-vizier",
        "brigand-next-to-a-covered-vizier",
        "brigand-covering-the-vizier",
        "treasure-diagonal-to-brigand",
        "treasure-next-to-a-covered-brigand",
        "treasure-covering-the-brigand",
        "treasure-next-to-vizier",
        "vizier-next-to-treasure",
    ],
)
def test_enemy_rules_only_look_at_visible_orthogonal_neighbours(
    picture: Picture, cell: str, card: str
) -> None:
    verdict = judge(table(picture), place(0, cell, card))
    assert verdict.ok, verdict.message


def test_both_bans_and_the_form_rule_are_reported_together() -> None:
    picture = {"nw": ["vizier"], "ne": ["oasis"], "se": ["brigand"]}
    verdict = judge(table(picture, to_play=1), place(0, "sw", "brigand"))
    assert verdict.rules == (TURN_RULE, "DES-NO-BRIGAND-BY-VIZIER")
    verdict = judge(table(picture), place(0, "nw", "treasure"))
    assert verdict.rules == ("DES-STACK-FULL",)


# -- DES-NO-SAME-ON-SAME -------------------------------------------------------------

#: A complete square in which stacking a brigand on the brigand breaks nothing else.
BRIGAND_SQUARE: Picture = {"nw": ["brigand"], "ne": ["oasis"], "sw": ["oasis"], "se": ["vizier"]}


@pytest.mark.parametrize(
    ("picture", "cell", "card"),
    [
        (FULL, "ne", "vizier"),
        (BRIGAND_SQUARE, "nw", "brigand"),
        (FULL, "sw", "treasure"),
        (FULL, "nw", "oasis"),
    ],
    ids=["vizier", "brigand", "treasure", "oasis"],
)
def test_same_on_same_is_illegal(picture: Picture, cell: str, card: str) -> None:
    verdict = judge(table(picture), place(0, cell, card))
    assert verdict.rules == ("DES-NO-SAME-ON-SAME",)
    article = "an" if card == "oasis" else "a"
    assert f"{article} {card} may not go on {article} {card}" in verdict.message


@pytest.mark.parametrize(
    ("picture", "cell", "card"),
    [
        (FULL, "nw", "vizier"),
        (FULL, "se", "treasure"),
        ({**FULL, "ne": ["vizier", "oasis"]}, "ne", "vizier"),
        ({**FULL, "nw": [None]}, "nw", "oasis"),
    ],
    ids=["vizier-on-oasis", "treasure-on-oasis", "same-type-lower-down", "on-an-unknown-top"],
)
def test_stacking_a_different_type_is_legal(picture: Picture, cell: str, card: str) -> None:
    verdict = judge(table(picture), place(0, cell, card))
    assert verdict.ok, verdict.message


# -- DES-CAPTURE-VIZIER / DES-CAPTURE-BRIGAND ----------------------------------------

CAPTURES = [
    # (picture, cell, card, captured cells, cards won)
    ({"nw": ["brigand"]}, "ne", "vizier", ["nw"], 1),
    (
        {"nw": ["oasis"], "ne": ["oasis"], "sw": ["treasure", "brigand"], "se": ["oasis"]},
        "se",
        "vizier",
        ["sw"],
        2,
    ),
    ({"nw": ["treasure"]}, "sw", "brigand", ["nw"], 1),
    (
        {"nw": ["oasis"], "ne": ["oasis", "treasure"], "sw": ["oasis"], "se": ["oasis"]},
        "nw",
        "brigand",
        ["ne"],
        2,
    ),
]


@pytest.mark.parametrize(
    ("picture", "cell", "card", "taken", "gained"),
    CAPTURES,
    ids=[
        "vizier-takes-brigand",
        "vizier-takes-brigand-stack",
        "brigand-takes-treasure",
        "brigand-takes-treasure-stack",
    ],
)
def test_capture_takes_the_whole_neighbouring_stack(
    picture: Picture, cell: str, card: str, taken: list[str], gained: int
) -> None:
    verdict, after = play(table(picture), place(0, cell, card))
    assert verdict.ok and verdict.rules == ()
    assert verdict.message == ("and captures 1 card" if gained == 1
                               else f"and captures {gained} cards")
    assert all(after.stacks[c] == () for c in taken)
    assert after.won == (gained, 0)
    untouched = set(picture) - set(taken) - {cell}
    assert all(after.stacks[c] == tuple(picture[c]) for c in untouched)


@pytest.mark.parametrize(
    ("picture", "cell", "card"),
    [
        ({"nw": ["brigand"], "ne": ["oasis"]}, "se", "vizier"),
        ({"nw": ["brigand"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]}, "nw", "vizier"),
        (
            {"nw": ["brigand", "oasis"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]},
            "ne",
            "vizier",
        ),
        ({"nw": ["brigand"]}, "ne", "oasis"),
        ({"nw": ["treasure"]}, "ne", "vizier"),
        ({"nw": ["treasure"], "ne": ["oasis"]}, "se", "brigand"),
        ({"nw": ["treasure"], "ne": ["oasis"], "sw": ["oasis"], "se": ["oasis"]}, "nw", "brigand"),
        ({"nw": ["treasure"]}, "ne", "treasure"),
        ({"nw": ["vizier"]}, "ne", "oasis"),
    ],
    ids=[
        "vizier-diagonal-to-brigand",
        "vizier-covering-a-brigand",
        "vizier-next-to-a-covered-brigand",
        "oasis-next-to-brigand",
        "vizier-next-to-treasure",
        "brigand-diagonal-to-treasure",
        "brigand-covering-a-treasure",
        "treasure-next-to-treasure",
        "oasis-next-to-vizier",
    ],
)
def test_no_capture_without_a_visible_orthogonal_prey(
    picture: Picture, cell: str, card: str
) -> None:
    verdict, after = play(table(picture), place(0, cell, card))
    assert verdict.ok, verdict.message
    assert "captures" not in verdict.message
    assert after.won == (0, 0)
    expected = {c: list(s) for c, s in picture.items()}
    expected[cell] = [*expected.get(cell, []), card]
    assert picture_of(after) == expected


def test_capture_a_vizier_stacked_next_to_a_brigand_captures_it() -> None:
    # Rules 3.6.2: stacking captures nothing by itself, but the new top's neighbours count.
    picture = {"nw": ["treasure"], "ne": ["oasis"], "sw": ["oasis", "brigand"], "se": ["oasis"]}
    verdict, after = play(table(picture), place(0, "nw", "vizier"))
    assert verdict.ok
    assert after.won == (2, 0)
    assert picture_of(after) == {"nw": ["treasure", "vizier"], "ne": ["oasis"], "se": ["oasis"]}


# -- DES-DOUBLE ----------------------------------------------------------------------


def test_double_a_brigand_between_two_treasures_takes_both() -> None:
    picture = {"ne": ["treasure"], "sw": ["treasure"], "se": ["oasis"]}
    verdict, after = play(table(picture), place(0, "nw", "brigand"))
    assert verdict.ok and verdict.message == "and captures 2 cards"
    assert after.won == (2, 0)
    assert picture_of(after) == {"nw": ["brigand"], "se": ["oasis"]}


def test_double_a_vizier_between_two_brigand_stacks_takes_both() -> None:
    picture = {"nw": ["oasis"], "ne": ["brigand"], "sw": ["oasis", "brigand"], "se": ["oasis"]}
    _, after = play(table(picture), place(0, "nw", "vizier"))
    assert after.won == (3, 0)
    assert picture_of(after) == {"nw": ["oasis", "vizier"], "se": ["oasis"]}


def test_double_only_when_both_neighbours_are_prey() -> None:
    picture = {"ne": ["treasure"], "sw": ["oasis"], "se": ["oasis"]}
    _, after = play(table(picture), place(0, "nw", "brigand"))
    assert after.won == (1, 0)
    assert picture_of(after) == {"nw": ["brigand"], "sw": ["oasis"], "se": ["oasis"]}


# -- DES-WON-PILE ---------------------------------------------------------------------


def test_won_pile_captured_cards_go_to_the_capturer_and_the_card_stays() -> None:
    state = table({"nw": ["treasure", "brigand"]}, seats=3, to_play=2, won=(4, 0, 1))
    _, after = play(state, place(2, "ne", "vizier"))
    assert after.won == (4, 0, 3)
    assert picture_of(after) == {"ne": ["vizier"]}


def test_won_pile_without_a_capture_nobody_wins_anything() -> None:
    state = table({"nw": ["oasis"]}, won=(2, 5))
    _, after = play(state, place(0, "ne", "brigand"))
    assert after.won == (2, 5)


def test_won_pile_placed_card_stays_false_the_capturer_joins_the_pile() -> None:
    state = table(
        {"nw": ["oasis"], "ne": ["brigand"], "sw": ["oasis"], "se": ["oasis"]},
        placed_card_stays=False,
    )
    verdict, after = play(state, place(0, "se", "vizier"))
    assert verdict.ok
    assert after.won == (2, 0), "the brigand and the vizier that took it"
    assert picture_of(after) == {"nw": ["oasis"], "sw": ["oasis"], "se": ["oasis"]}


def test_won_pile_placed_card_stays_false_changes_nothing_without_a_capture() -> None:
    state = table({"nw": ["oasis"]}, placed_card_stays=False)
    _, after = play(state, place(0, "ne", "vizier"))
    assert picture_of(after) == {"nw": ["oasis"], "ne": ["vizier"]}
    assert after.won == (0, 0)


# -- DES-FOUR-VIZIERS -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("picture", "cell", "gained"),
    [
        ({"nw": ["vizier"], "ne": ["vizier"], "sw": ["vizier"]}, "se", 4),
        (
            {
                "nw": ["vizier"],
                "ne": ["oasis", "vizier"],
                "sw": ["vizier"],
                "se": ["treasure", "oasis"],
            },
            "se",
            7,
        ),
    ],
    ids=["fourth-cell", "stacked-fourth"],
)
def test_four_viziers_win_the_whole_square(picture: Picture, cell: str, gained: int) -> None:
    verdict, after = play(table(picture, to_play=1), place(1, cell, "vizier"))
    assert verdict.ok
    assert "four viziers" in verdict.message
    assert after.won == (0, gained)
    assert picture_of(after) == {}


@pytest.mark.parametrize(
    ("picture", "cell", "card"),
    [
        ({"nw": ["vizier"], "ne": ["vizier"], "sw": ["oasis"], "se": ["oasis"]}, "se", "vizier"),
        ({"nw": ["vizier"], "ne": ["vizier"], "sw": ["vizier"]}, "se", "oasis"),
        ({"nw": ["vizier"], "ne": ["vizier"], "sw": ["vizier"], "se": ["vizier"]}, "se", "oasis"),
        ({"nw": ["vizier"], "ne": ["vizier"]}, "sw", "vizier"),
    ],
    ids=["three-viziers", "fourth-card-not-a-vizier", "fourth-vizier-covered", "square-incomplete"],
)
def test_four_viziers_needs_four_vizier_tops(picture: Picture, cell: str, card: str) -> None:
    verdict, after = play(table(picture), place(0, cell, card))
    assert verdict.ok, verdict.message
    assert after.won == (0, 0)
    assert sum(len(s) for s in after.stacks.values()) == sum(len(s) for s in picture.values()) + 1


def test_four_viziers_a_new_square_starts_from_scratch() -> None:
    _, after = play(
        table({"nw": ["vizier"], "ne": ["vizier"], "sw": ["vizier"]}), place(0, "se", "vizier")
    )
    assert judge(after, place(1, "se", "treasure")).ok
    _, again = play(after, place(1, "se", "treasure"))
    assert judge(again, place(0, "nw", "oasis")).rules == ("DES-FORM",)


# -- DES-STUCK ------------------------------------------------------------------------


def test_stuck_gives_a_card_to_the_previous_player() -> None:
    state = table({"nw": ["vizier"]}, seats=3, to_play=1)
    verdict, after = play(state, stuck(1))
    assert verdict.ok and verdict.rules == ()
    assert verdict.message == "(seat 0)"  # after "cannot play and gives a card to..."
    assert after.won == (1, 0, 0)
    assert after.hands == (3, 3, 3), "the giver draws back to 3"
    assert after.pile == state.pile - 1
    assert after.turn.current == 2
    assert picture_of(after) == {"nw": ["vizier"]}


def test_stuck_on_an_empty_square_is_illegal() -> None:
    verdict = judge(table(), stuck(0))
    assert not verdict.ok
    assert verdict.rules == ("DES-STUCK",)
    assert "the square is empty" in verdict.message


@pytest.mark.parametrize(
    ("direction", "receiver"),
    [("clockwise", 0), ("counterclockwise", 2)],
)
def test_stuck_the_previous_player_follows_the_direction(direction: str, receiver: int) -> None:
    state = table({"nw": ["vizier"]}, seats=3, to_play=1, direction=direction)
    verdict, after = play(state, stuck(1))
    assert verdict.message == f"(seat {receiver})"
    assert after.won[receiver] == 1 and sum(after.won) == 1


def test_stuck_counterclockwise_in_play() -> None:
    match = Match(GAME, Header("deserto", ("a", "b", "c"), 0, {"direction": "counterclockwise"}))
    match.play(place(0, "nw", "vizier"))
    assert match.to_play() == 2
    match.play(place(2, "ne", "vizier"))
    assert match.to_play() == 1
    ruling = match.play(stuck(1))
    assert ruling.verdict.ok
    assert match.state.won == (0, 0, 1)


def test_stuck_the_previous_player_is_who_played_just_before() -> None:
    # End of the game: seat 2 has no cards left and is passed over, so the turn before
    # seat 0's was seat 1's.
    state = table({"nw": ["vizier"]}, seats=3, to_play=1, pile=0, hands=(1, 1, 0))
    _, state = play(state, place(1, "ne", "vizier"))
    assert state.turn.current == 0
    verdict, after = play(state, stuck(0))
    assert verdict.message == "(seat 1)"
    assert after.won == (0, 1, 0)


def test_stuck_when_the_stuck_seat_played_last_the_seat_before_gets_the_card() -> None:
    # Only seat 1 has cards left: it played the turn before its own.
    state = table({"nw": ["vizier"]}, to_play=1, pile=0, hands=(0, 2))
    _, state = play(state, place(1, "ne", "vizier"))
    assert state.turn.current == 1
    verdict, after = play(state, stuck(1))
    assert verdict.ok and verdict.message == "(seat 0)"
    assert after.won == (1, 0)


#: Squares on which no brigand may go anywhere: a player holding three can be stuck.
NO_PLACE_FOR_A_BRIGAND: list[Picture] = [
    {"nw": ["vizier"]},
    {"nw": ["vizier"], "ne": ["vizier"]},
    {"nw": ["vizier"], "ne": ["vizier"], "sw": ["oasis"], "se": ["vizier"]},
]
#: Squares on which every kind of card has a legal place.
ROOM_FOR_EVERY_CARD: list[Picture] = [
    {"nw": ["oasis"]},
    {"nw": ["vizier"], "ne": ["oasis"]},
    FULL,
]


@pytest.mark.parametrize("picture", NO_PLACE_FOR_A_BRIGAND, ids=["one", "two", "full"])
def test_stuck_is_believed_when_some_card_may_have_no_place(picture: Picture) -> None:
    verdict = judge(table(picture), stuck(0))
    assert verdict.ok, verdict.message


@pytest.mark.parametrize("picture", ROOM_FOR_EVERY_CARD, ids=["one", "two", "full"])
def test_stuck_is_illegal_when_every_kind_of_card_has_a_place(picture: Picture) -> None:
    verdict = judge(table(picture), stuck(0))
    assert verdict.rules == ("DES-STUCK",)
    assert "every kind of card has a legal place" in verdict.message


@pytest.mark.parametrize(
    "picture",
    [{"nw": [None]}, {"nw": ["vizier"], "ne": [None]}, {**FULL, "se": [None]}],
    ids=["unknown-alone", "unknown-beside-vizier", "unknown-in-full-square"],
)
def test_stuck_unknown_cards_never_disprove_a_stuck_claim(picture: Picture) -> None:
    assert judge(table(picture), stuck(0)).ok


def test_stuck_draws_back_false_leaves_the_giver_a_card_short() -> None:
    state = table({"nw": ["vizier"]}, stuck_draws_back=False)
    _, after = play(state, stuck(0))
    assert after.hands == (2, 3)
    assert after.pile == state.pile
    assert after.won == (0, 1)


def test_stuck_with_the_pile_empty_nobody_draws() -> None:
    state = table({"nw": ["vizier"]}, pile=0, hands=(2, 2))
    _, after = play(state, stuck(0))
    assert after.hands == (1, 2) and after.pile == 0


# -- DES-ONE-CARD and turn order -------------------------------------------------------


def test_one_card_a_normal_placement_takes_one_card_and_draws_one() -> None:
    state = table()
    verdict, after = play(state, place(0, "nw", "oasis"))
    assert verdict.ok
    assert after.hands == (3, 3) and after.pile == state.pile - 1


def test_one_card_a_seat_with_no_card_left_cannot_place() -> None:
    state = table({"nw": ["oasis"]}, to_play=1, pile=0, hands=(0, 2))
    verdict = judge(state, place(0, "ne", "oasis"))
    assert verdict.rules == (TURN_RULE, "DES-ONE-CARD")
    assert "seat 0 has no card left to play" in verdict.message


def test_turn_order_a_move_out_of_turn_is_flagged_and_play_goes_on_after_it() -> None:
    state = table({"nw": ["oasis"]}, seats=3, to_play=0)
    verdict, after = play(state, place(1, "ne", "oasis"))
    assert verdict.rules == (TURN_RULE,)
    assert "it is seat 0's turn, not 1's" in verdict.message
    assert after.turn.current == 2


def test_turn_order_a_second_card_in_the_same_turn_is_flagged() -> None:
    _, after = play(table(), place(0, "nw", "oasis"))
    assert not judge(after, place(0, "ne", "oasis")).ok


def test_turn_order_seats_with_no_cards_are_passed_over() -> None:
    state = table({"nw": ["oasis"]}, seats=3, to_play=0, pile=0, hands=(1, 0, 2))
    _, after = play(state, place(0, "ne", "oasis"))
    assert after.turn.current == 2
    _, after = play(after, place(2, "sw", "oasis"))
    assert after.turn.current == 2, "only seat 2 has cards left"


# -- DES-END ---------------------------------------------------------------------------


def test_end_play_goes_on_without_drawing_once_the_pile_is_empty() -> None:
    state = table({"nw": ["oasis"]}, pile=1)
    _, state = play(state, place(0, "ne", "oasis"))
    assert (state.pile, state.hands) == (0, (3, 3))
    _, state = play(state, place(1, "sw", "oasis"))
    assert (state.pile, state.hands) == (0, (3, 2))
    assert not GAME.is_over(state) and GAME.to_play(state) == 0


def test_end_the_game_ends_when_the_last_hand_is_empty() -> None:
    state = table({"nw": ["brigand"]}, to_play=1, pile=0, hands=(0, 1), won=(3, 2))
    assert not GAME.is_over(state) and GAME.winners(state) == []
    verdict, after = play(state, place(1, "ne", "vizier"))
    assert verdict.ok
    assert GAME.is_over(after) and GAME.to_play(after) is None
    assert GAME.scores(after) == {0: 3, 1: 3}


def test_end_a_move_after_the_end_is_illegal() -> None:
    state = table({"nw": ["oasis"]}, pile=0, hands=(0, 0))
    for move in (place(0, "ne", "oasis"), stuck(1)):
        verdict = judge(state, move)
        assert verdict.rules == ("DES-END",)
        assert "the game is over" in verdict.message


@pytest.mark.parametrize(
    ("won", "winners"),
    [((5, 5, 3), [0, 1]), ((0, 0, 0), [0, 1, 2]), ((2, 7, 7), [1, 2]), ((1, 9, 4), [1])],
    ids=["two-share", "all-share", "last-two-share", "one-wins"],
)
def test_end_ties_are_shared(won: tuple[int, ...], winners: list[int]) -> None:
    state = table(seats=3, pile=0, hands=(0, 0, 0), won=won)
    assert GAME.winners(state) == winners


@pytest.mark.parametrize(
    ("square_at_end", "scores"),
    [("nobody", {0: 0, 1: 1}), ("last_capturer", {0: 0, 1: 4})],
)
def test_end_cards_left_in_the_square(square_at_end: str, scores: dict[int, int]) -> None:
    state = table(
        {"nw": ["brigand"], "sw": ["oasis"]},
        to_play=1,
        pile=0,
        hands=(1, 1),
        square_at_end=square_at_end,
    )
    _, state = play(state, place(1, "ne", "vizier"))
    assert GAME.scores(state) == {0: 0, 1: 1}, "the square is scored only at the end"
    _, state = play(state, place(0, "nw", "oasis"))
    assert GAME.is_over(state)
    assert GAME.scores(state) == scores


def test_end_last_capturer_with_no_capture_leaves_the_square_to_nobody() -> None:
    state = table({"nw": ["oasis"]}, pile=0, hands=(1, 0), square_at_end="last_capturer")
    _, state = play(state, place(0, "ne", "oasis"))
    assert GAME.is_over(state) and GAME.scores(state) == {0: 0, 1: 0}


# -- whole games ----------------------------------------------------------------------


def enemies_touch(state: DesertoState) -> bool:
    """The invariant of the rules (3.5): no hunter next to its prey after a move."""
    for cell in CELLS:
        for other in NEIGHBOURS[cell]:
            if (state.top(cell), state.top(other)) in {
                ("vizier", "brigand"),
                ("brigand", "treasure"),
            }:
                return True
    return False


def play_a_whole_game(seats: int, seed: int, **options: Any) -> tuple[Match[Any], list[int]]:
    """Deal a shuffled deck and play it out with real hands, each seat's first legal card.

    Checks the referee's pile and hand counts against the real ones after every move.
    Returns the match and, per move, which seat played.
    """
    rng = random.Random(seed)
    deck = [face.code for face in GAME.deck.faces for _ in range(face.copies)]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(3)] for _ in range(seats)]
    match = Match(GAME, Header("deserto", tuple(f"s{n}" for n in range(seats)), 0, options))
    movers: list[int] = []
    while (seat := match.to_play()) is not None:
        hand = hands[seat]
        tries = [place(seat, cell, card) for card in hand for cell in CELLS]
        rng.shuffle(tries)
        legal = [move for move in tries if GAME.judge(match.state, move).ok]
        move = legal[0] if legal else stuck(seat)
        hand.remove(move.get("card") if legal else rng.choice(hand))
        ruling = match.play(move)
        assert ruling.verdict.ok, ruling.verdict.message
        if deck and (legal or match.header.options["stuck_draws_back"]):
            hand.append(deck.pop())
        movers.append(seat)
        assert match.state.pile == len(deck)
        assert list(match.state.hands) == [len(h) for h in hands]
        assert not enemies_touch(match.state)
        assert GAME.is_over(match.state) == (not deck and not any(hands))
        assert len(movers) <= 51, "every move uses up one card"
    return match, movers


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_uses_all_51_cards(seats: int, seed: int) -> None:
    match, movers = play_a_whole_game(seats, seed)
    state = match.state
    assert len(movers) == 51
    assert any(move.kind == "stuck" for move in match.moves), "the game had a stuck turn"
    assert state.pile == 0 and state.hands == (0,) * seats
    left = sum(len(stack) for stack in state.stacks.values())
    assert sum(match.game.scores(state).values()) == 51 - left
    assert match.result()["final"] is True
    assert match.result()["winners"] == match.game.winners(state) != []
    while_dealing = 51 - 3 * seats
    assert movers[:while_dealing] == [n % seats for n in range(while_dealing)]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_whole_game_with_the_square_to_the_last_capturer_scores_every_card(seats: int) -> None:
    match, _ = play_a_whole_game(seats, seed=7, square_at_end="last_capturer")
    assert sum(match.game.scores(match.state).values()) == 51


def test_a_whole_game_with_the_options_changed() -> None:
    match, movers = play_a_whole_game(
        3, seed=5, direction="counterclockwise", placed_card_stays=False, stuck_draws_back=False
    )
    state = match.state
    assert state.pile == 0 and state.hands == (0, 0, 0)
    assert movers[:6] == [0, 2, 1, 0, 2, 1]
    left = sum(len(stack) for stack in state.stacks.values())
    assert sum(match.game.scores(state).values()) == 51 - left


# -- unknown cards ----------------------------------------------------------------------


def test_unknown_card_is_ok_with_a_warning() -> None:
    verdict, after = play(table({"nw": ["oasis"]}), place(0, "ne", None))
    assert verdict.ok and verdict.severity == "warning" and verdict.rules == ()
    assert "not recognised" in verdict.message
    assert after.stacks["ne"] == (None,)
    assert after.hands == (3, 3)


@pytest.mark.parametrize(
    ("picture", "cell", "rule"),
    [
        ({"nw": ["oasis"]}, "se", "DES-FORM"),
        ({"nw": ["oasis"]}, "nw", "DES-STACK-FULL"),
        ({}, "off", "DES-FORM"),
    ],
    ids=["diagonal", "stacked-too-early", "off-the-square"],
)
def test_unknown_card_where_no_card_may_go_is_still_illegal(
    picture: Picture, cell: str, rule: str
) -> None:
    verdict = judge(table(picture), place(0, cell, None))
    assert verdict.rules == (rule,)


@pytest.mark.parametrize(
    ("picture", "cell", "card"),
    [
        ({"nw": [None]}, "ne", "brigand"),
        ({"nw": [None]}, "ne", "treasure"),
        ({"nw": [None]}, "ne", "vizier"),
        ({"nw": [None]}, "ne", "oasis"),
        ({"nw": [None]}, "ne", None),
        ({"nw": [None], "ne": [None], "sw": [None], "se": [None]}, "nw", "vizier"),
        ({"nw": ["vizier"], "ne": [None], "sw": [None], "se": ["oasis"]}, "se", "brigand"),
    ],
    ids=[
        "brigand-by-unknown",
        "treasure-by-unknown",
        "vizier-by-unknown",
        "oasis-by-unknown",
        "unknown-by-unknown",
        "on-an-unknown-square",
        "brigand-between-unknowns",
    ],
)
def test_unknown_neighbours_never_raise_a_flag_nor_get_captured(
    picture: Picture, cell: str, card: str | None
) -> None:
    verdict, after = play(table(picture), place(0, cell, card))
    assert verdict.ok, verdict.message
    assert after.won == (0, 0)
    assert all(after.stacks[c] == tuple(picture[c]) for c in picture if c != cell)


def test_unknown_top_is_not_counted_as_a_vizier_for_four_viziers() -> None:
    picture: Picture = {"nw": ["vizier"], "ne": ["vizier"], "sw": [None]}
    _, after = play(table(picture), place(0, "se", "vizier"))
    assert after.won == (0, 0)


# -- the table interpreter ----------------------------------------------------------------

CENTRE_MM = {"nw": (-34.5, -47.0), "ne": (34.5, -47.0), "sw": (-34.5, 47.0), "se": (34.5, 47.0)}
#: Beside the square, still in the middle of the mat.
BESIDE_MM = (100.0, 0.0)


def view(
    tops: Mapping[str, str | None], *, beside: Sequence[str | None] = (), far: int = 0
) -> TableView:
    """What the camera sees: a top card centred on each cell of `tops`, cards beside the
    square, and `far` cards well away from it (won piles, the draw pile)."""
    cards = [ViewCard(code, *CENTRE_MM[cell]) for cell, code in tops.items()]
    cards += [ViewCard(code, BESIDE_MM[0], BESIDE_MM[1] + 10 * n) for n, code in enumerate(beside)]
    cards += [ViewCard("vizier", 250.0, 180.0 - n) for n in range(far)]
    return TableView(tuple(cards))


FULL_TOPS = {cell: stack[-1] for cell, stack in FULL.items()}


def tops_of(state: DesertoState) -> dict[str, str | None]:
    return {cell: stack[-1] for cell, stack in state.stacks.items() if stack}


def interpreter() -> DesertoTable:
    return GAME.interpreter(Header("deserto", ("a", "b")))


class Table:
    """A match with its interpreter: looks at views, plays what it is told."""

    def __init__(self, state: DesertoState | None = None) -> None:
        self.match = Match(GAME, Header("deserto", ("a", "b")))
        if state is not None:
            self.match._states[-1] = state  # start from a drawn square
        self.reader = interpreter()

    @property
    def last(self) -> Ruling | None:
        return self.match.rulings[-1] if self.match.rulings else None

    def see(self, tops: Mapping[str, str | None], **kwargs: Any) -> list[Any]:
        actions = self.reader.on_view(self.match.state, view(tops, **kwargs), self.last)
        self.act(actions)
        return actions

    def press(self, seat: int, kind: Any) -> list[Any]:
        actions = self.reader.on_press(self.match.state, Press(seat, kind), self.last)
        self.act(actions)
        return actions

    def act(self, actions: list[Any]) -> None:
        for action in actions:
            if isinstance(action, Play):
                self.match.play(action.move)
            elif isinstance(action, TakeBack):
                self.match.undo()


def test_interpreter_cell_centres_match_the_mat() -> None:
    reader = interpreter()
    for cell, (x, y) in CENTRE_MM.items():
        actions = reader.on_view(table(), TableView((ViewCard("oasis", x, y),)), None)
        assert actions == [Play(place(0, cell, "oasis"))]


def test_interpreter_a_new_card_in_a_cell_is_a_placement() -> None:
    t = Table()
    assert t.see({"nw": "oasis"}) == [Play(place(0, "nw", "oasis"))]
    assert t.see({"nw": "oasis"}) == [], "nothing changed"
    assert t.see({"nw": "oasis", "ne": "vizier"}) == [Play(place(1, "ne", "vizier"))]


def test_interpreter_a_card_a_little_off_centre_is_still_in_its_cell() -> None:
    reader = interpreter()
    seen = TableView((ViewCard("treasure", 34.5 + 20, 47.0 - 30),))
    assert reader.on_view(table(), seen, None) == [Play(place(0, "se", "treasure"))]


def test_interpreter_cards_far_from_the_square_are_ignored() -> None:
    t = Table()
    assert t.see({}, far=5) == []


def test_interpreter_a_stacked_card_is_a_placement() -> None:
    t = Table(table(FULL))
    assert t.see({**tops_of(t.match.state), "nw": "vizier"}) == [Play(place(0, "nw", "vizier"))]
    assert t.match.state.stacks["nw"] == ("oasis", "vizier")


def test_interpreter_the_top_card_is_the_one_nearest_the_centre() -> None:
    reader = interpreter()
    state = table(FULL)
    x, y = CENTRE_MM["nw"]
    cards = view({c: code for c, code in tops_of(state).items() if c != "nw"}).cards
    seen = TableView((*cards, ViewCard("oasis", x + 15, y + 10), ViewCard("vizier", x + 1, y)))
    assert reader.on_view(state, seen, None) == [Play(place(0, "nw", "vizier"))]


def test_interpreter_an_unrecognised_card_is_played_and_the_table_asked() -> None:
    t = Table(table({"nw": ["oasis"]}))
    actions = t.see({"nw": "oasis", "ne": None})
    assert actions[0] == Play(place(0, "ne", None))
    assert isinstance(actions[1], AskTable) and "ne" in actions[1].message
    assert t.last is not None and t.last.verdict.severity == "warning"


def test_interpreter_two_new_cards_at_once_ask_the_table() -> None:
    t = Table(table({"nw": ["oasis"]}))
    actions = t.see({"nw": "oasis", "ne": "vizier", "sw": "oasis"})
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "2 cards changed at once (ne, sw)" in actions[0].message
    assert t.match.moves == []


def test_interpreter_plays_nothing_while_a_card_it_knows_is_missing() -> None:
    # nw's vizier is not seen (a misread, a sleeve over it): a brigand next to where
    # it should be must not be judged, and so never flagged, until the square is clear.
    t = Table(table({"nw": ["vizier"], "sw": ["oasis"]}))
    actions = t.see({"sw": "oasis", "ne": "brigand"})
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "nw" in actions[0].message
    assert t.match.moves == []
    assert t.see({"nw": "vizier", "sw": "oasis", "ne": "brigand"}) == [
        Play(place(0, "ne", "brigand"))
    ]


def test_interpreter_a_flagged_card_taken_back_undoes_the_move() -> None:
    t = Table(table({"nw": ["vizier"]}))
    t.see({"nw": "vizier", "ne": "brigand"})
    assert t.last is not None and t.last.verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",)
    actions = t.see({"nw": "vizier"})
    assert len(actions) == 1 and isinstance(actions[0], TakeBack)
    assert t.match.moves == [] and picture_of(t.match.state) == {"nw": ["vizier"]}


def test_interpreter_a_flagged_stacked_card_taken_back_undoes_the_move() -> None:
    t = Table(table(FULL))
    t.see({**FULL_TOPS, "nw": "brigand"})
    assert t.last is not None and t.last.verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",)
    actions = t.see(FULL_TOPS)
    assert len(actions) == 1 and isinstance(actions[0], TakeBack)
    assert t.match.moves == [] and picture_of(t.match.state) == FULL


def test_interpreter_a_legal_move_is_not_taken_back_by_the_view() -> None:
    t = Table(table(FULL))
    t.see({**FULL_TOPS, "nw": "vizier"})
    assert t.last is not None and t.last.verdict.ok
    actions = t.see(FULL_TOPS)
    assert len(actions) == 1 and isinstance(actions[0], Play), "an oasis on the vizier"
    assert actions[0].move == place(1, "nw", "oasis")


def test_interpreter_a_legal_card_that_vanishes_asks_the_table() -> None:
    t = Table(table({"nw": ["oasis"]}))
    t.see({"nw": "oasis", "ne": "vizier"})
    actions = t.see({"nw": "oasis"})
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "ne" in actions[0].message
    assert len(t.match.moves) == 1


def test_interpreter_a_captured_pile_still_in_its_cell_is_not_a_move() -> None:
    t = Table(table({"nw": ["brigand"]}))
    t.see({"nw": "brigand"})
    assert t.see({"nw": "brigand", "ne": "vizier"}) == [Play(place(0, "ne", "vizier"))]
    assert t.match.state.stacks["nw"] == () and t.match.state.won == (1, 0)
    assert t.see({"nw": "brigand", "ne": "vizier"}) == [], "the pile is still there"
    assert t.see({"nw": None, "ne": "vizier"}) == [], "the same pile, read less well"
    assert t.see({"ne": "vizier"}) == [], "picked up"
    assert t.see({"nw": "treasure", "ne": "vizier"}) == [Play(place(1, "nw", "treasure"))]


def test_interpreter_after_a_capture_a_different_card_there_is_a_move() -> None:
    t = Table(table({"nw": ["brigand"]}))
    t.see({"nw": "brigand", "ne": "vizier"})
    assert t.see({"nw": "oasis", "ne": "vizier"}) == [Play(place(1, "nw", "oasis"))]


def test_interpreter_after_the_pile_was_removed_the_same_card_again_is_a_move() -> None:
    t = Table(table({"nw": ["brigand"], "sw": ["oasis"]}))
    t.see({"nw": "brigand", "sw": "oasis", "ne": "vizier"})
    t.see({"sw": "oasis", "ne": "vizier"})
    # A new brigand may not go by the vizier, but it is a move all the same.
    actions = t.see({"nw": "brigand", "sw": "oasis", "ne": "vizier"})
    assert actions == [Play(place(1, "nw", "brigand"))]
    assert t.last is not None and t.last.verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",)


def test_interpreter_hold_by_the_seat_to_play_is_stuck() -> None:
    t = Table(table({"nw": ["vizier"]}, to_play=1))
    assert t.press(1, "hold") == [Play(stuck(1))]
    assert t.match.state.won == (1, 0)


def test_interpreter_hold_by_another_seat_asks_the_table() -> None:
    t = Table(table({"nw": ["vizier"]}, to_play=1))
    actions = t.press(0, "hold")
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "seat 0 held its button, but it is seat 1's turn" in actions[0].message
    assert t.match.moves == []


def test_interpreter_double_press_by_the_last_mover_takes_the_move_back() -> None:
    t = Table()
    t.see({"nw": "oasis"})
    t.see({"nw": "oasis"}, far=1)  # past the moment another seat may claim the card
    assert t.press(1, "double") == [], "only the seat that moved may take it back"
    actions = t.press(0, "double")
    assert len(actions) == 1 and isinstance(actions[0], TakeBack)
    assert t.match.moves == []
    assert t.press(0, "double") == [], "nothing left to take back"


def test_interpreter_a_press_with_no_card_seen_turned_asks_the_table() -> None:
    t = Table(table({"nw": ["vizier"]}))
    actions = t.press(0, "press")
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "no card go on an identical one" in actions[0].message
    assert t.match.moves == []


def turned(tops: Mapping[str, str | None], cell: str, degrees: float) -> TableView:
    """The square of `tops`, each card square to the mat but the one on `cell`."""
    return TableView(tuple(
        ViewCard(code, *CENTRE_MM[c], 90.0 + (degrees if c == cell else 0.0))
        for c, code in tops.items()))


def test_interpreter_a_card_on_an_identical_one_is_asked_then_confirmed_by_a_press() -> None:
    t = Table(table(FULL))
    tops = tops_of(t.match.state)
    assert t.reader.on_view(t.match.state, turned(tops, "ne", 0.0), None) == []
    actions = t.reader.on_view(t.match.state, turned(tops, "ne", 11.0), None)
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "ne" in actions[0].message and t.match.moves == []
    actions = t.press(0, "press")
    assert actions == [Play(place(0, "ne", FULL_TOPS["ne"]))]
    assert t.last is not None and t.last.verdict.rules == ("DES-NO-SAME-ON-SAME",)
    # the camera cannot see it picked up again (the same face): only a double press
    actions = t.reader.on_view(t.match.state, turned(tops, "ne", 0.0), t.last)
    assert all(isinstance(action, AskTable) for action in actions) and len(t.match.moves) == 1
    assert isinstance(t.press(0, "double")[0], TakeBack)
    assert t.match.moves == [] and picture_of(t.match.state) == FULL


def test_interpreter_a_card_turned_without_a_press_is_no_move() -> None:
    t = Table(table(FULL))
    tops = tops_of(t.match.state)
    t.reader.on_view(t.match.state, turned(tops, "ne", 0.0), None)
    t.reader.on_view(t.match.state, turned(tops, "ne", 9.0), None)  # a nudge, perhaps
    assert t.see({**tops, "sw": "brigand"}) == [Play(place(0, "sw", "brigand"))]
    assert t.press(1, "press") != [Play(place(1, "ne", FULL_TOPS["ne"]))]


def test_interpreter_a_double_press_by_the_seat_that_put_it_down_flags_it_out_of_turn() -> None:
    t = Table(table({"nw": ["vizier"]}))
    assert t.see({"nw": "vizier", "ne": "oasis"}) == [Play(place(0, "ne", "oasis"))]
    actions = t.press(1, "double")  # it was seat 1's card, not seat 0's
    assert isinstance(actions[0], TakeBack) and actions[1:] == [Play(place(1, "ne", "oasis"))]
    assert t.last is not None and t.last.verdict.rules == (TURN_RULE,)
    # picked up again: taken back, and seat 0 plays its own
    assert isinstance(t.see({"nw": "vizier"})[0], TakeBack)
    assert t.see({"nw": "vizier", "sw": "treasure"}) == [Play(place(0, "sw", "treasure"))]


def test_interpreter_a_double_press_claims_only_the_card_just_seen() -> None:
    t = Table(table({"nw": ["vizier"]}))
    t.see({"nw": "vizier", "ne": "oasis"})
    t.see({"nw": "vizier", "ne": "oasis"}, far=1)  # the table changed since
    assert t.press(1, "double") == []  # too late: nothing to claim
    assert len(t.match.moves) == 1


def test_interpreter_a_card_beside_the_square_is_an_off_placement() -> None:
    t = Table(table({"nw": ["oasis"]}))
    assert t.see({"nw": "oasis"}, beside=["treasure"]) == [Play(place(0, "off", "treasure"))]
    assert t.last is not None and t.last.verdict.rules == ("DES-FORM",)
    assert t.see({"nw": "oasis"}, beside=["treasure"]) == [], "already counted"
    actions = t.see({"nw": "oasis"})
    assert len(actions) == 1 and isinstance(actions[0], TakeBack)
    assert t.match.state.strays == 0


def test_interpreter_a_press_puts_the_card_where_the_top_turned_most_never_a_guess() -> None:
    # two identical cards one on the other are outlined as about one: a small turn
    t = Table(table(FULL))
    tops = tops_of(t.match.state)
    square = {c: (*CENTRE_MM[c], 90.0) for c in tops}
    t.reader.on_view(t.match.state, TableView(tuple(
        ViewCard(code, *square[c]) for c, code in tops.items())), None)
    nudged = {**square, "ne": (*CENTRE_MM["ne"], 92.6), "sw": (*CENTRE_MM["sw"], 90.5)}
    t.reader.on_view(t.match.state, TableView(tuple(
        ViewCard(code, *nudged[c]) for c, code in tops.items())), None)
    assert t.press(0, "press") == [Play(place(0, "ne", FULL_TOPS["ne"]))]
    # two cells turned about as much: which one is asked, never guessed
    t = Table(table(FULL))
    t.reader.on_view(t.match.state, TableView(tuple(
        ViewCard(code, *square[c]) for c, code in tops.items())), None)
    both = {**nudged, "sw": (*CENTRE_MM["sw"], 88.0)}
    t.reader.on_view(t.match.state, TableView(tuple(
        ViewCard(code, *both[c]) for c, code in tops.items())), None)
    actions = t.press(0, "press")
    assert len(actions) == 1 and isinstance(actions[0], AskTable) and t.match.moves == []


def test_interpreter_a_still_card_whose_outline_jitters_does_not_count_as_turned() -> None:
    # as recorded in dim light: the view a card first shows in may be the odd one, its
    # outline 2 degrees off the next views', while the card never moved
    t = Table(table(FULL))
    tops = tops_of(t.match.state)

    def view(angles: dict[str, float]) -> TableView:
        return TableView(tuple(ViewCard(code, *CENTRE_MM[c], angles.get(c, 90.0))
                               for c, code in tops.items()))

    for se in (95.4, 96.2, 97.3):  # each view within the jitter of the one before
        assert t.reader.on_view(t.match.state, view({"se": se}), None) == []
    # a card put on the identical one on ne, outlined with it as about one: 2.5 degrees
    t.reader.on_view(t.match.state, view({"se": 97.3, "ne": 87.5}), None)
    assert t.press(0, "press") == [Play(place(0, "ne", FULL_TOPS["ne"]))]


def test_interpreter_a_press_right_after_a_take_back_asks_rather_than_fails() -> None:
    t = Table(table({"nw": ["vizier"]}))
    t.see({"nw": "vizier", "ne": "oasis"})
    assert isinstance(t.press(0, "double")[0], TakeBack)  # the cells are seen afresh
    actions = t.press(1, "press")
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
