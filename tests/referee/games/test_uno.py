"""UNO with the Romanian house rules: every rule of shared/rules/uno.md by its id, legal
and illegal, the official options, deferred verdicts on wilds, whole rounds and games
with real (simulated) hands, and the logs through `tableref referee check`.

A match starts from `started(...)`: the dealer (the seat before `first`) has dealt and
turned up `top`. Hands are hidden, so most tests only count cards; `seen` draws put
known cards into a hand.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from referee.core import TURN_RULE, Header, Match, Move, RefereeError, Verdict
from referee.games import get_game
from referee.games.uno import WILDS, Uno, UnoState, UnoTable
from referee.table import Play, Press, TableView, ViewCard

GAME = Uno()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "referee" / "uno"
NOTATION_DOC = Path(__file__).parents[3] / "docs" / "notation.md"
COLOURS = ("red", "green", "blue", "yellow")
RULE_IDS = [
    "UNO-MATCH", "UNO-FIRST-CARD", "UNO-DRAW", "UNO-SKIP", "UNO-REVERSE",
    "UNO-WILD-RESTRICT", "UNO-WD4-RESTRICT", "UNO-STACK", "UNO-JUMP-IN", "UNO-DOUBLE",
    "UNO-ZERO", "UNO-CALL", "UNO-CHALLENGE", "UNO-RESHUFFLE", "UNO-SCORE", "UNO-GAME-END",
]


def new_match(seats: int = 3, first: int = 0, **options: Any) -> Match[UnoState]:
    names = tuple(f"seat{n}" for n in range(seats))
    return Match(GAME, Header("uno", names, first, options))


def started(top: str = "red-3", seats: int = 3, first: int = 0, **options: Any) -> Match[UnoState]:
    """A match whose dealer has dealt and turned up `top` (a colour for a wild top)."""
    match = new_match(seats, first, **options)
    dealer = (first - 1) % seats
    assert match.play(Move(dealer, "deal")).verdict.ok
    fields: dict[str, Any] = {"card": top}
    if top == "wild":
        fields["colour"] = "red"
    assert match.play(Move(dealer, "turn-up", fields)).verdict.ok
    return match


def play(seat: int, *cards: str, colour: str | None = None, swap: int | None = None) -> Move:
    fields: dict[str, Any] = {"cards": list(cards)}
    if colour is not None:
        fields["colour"] = colour
    if swap is not None:
        fields["swap"] = swap
    return Move(seat, "play", fields)


def draw(seat: int, count: int = 1, seen: list[str] | None = None) -> Move:
    fields: dict[str, Any] = {"count": count}
    if seen is not None:
        fields["cards"] = seen
    return Move(seat, "draw", fields)


def reveal(seat: int, *cards: str) -> Move:
    return Move(seat, "reveal", {"cards": list(cards)})


def uno(seat: int) -> Move:
    return Move(seat, "uno")


def catch(seat: int, target: int) -> Move:
    return Move(seat, "catch", {"target": target})


def challenge(seat: int) -> Move:
    return Move(seat, "challenge")


def run(match: Match[UnoState], *moves: Move) -> list[Verdict]:
    return [match.play(move).verdict for move in moves]


def legal(match: Match[UnoState], *moves: Move) -> None:
    for move in moves:
        verdict = match.play(move).verdict
        assert verdict.ok, (move, verdict)


def rules(match: Match[UnoState], move: Move) -> tuple[str, ...]:
    return match.play(move).verdict.rules


def conserved(state: UnoState) -> bool:
    """All 108 playing cards are in hands, on the discard pile or in the draw pile."""
    return sum(state.hands) + len(state.discard) + state.pile == GAME.playing_cards


def set_hands(match: Match[UnoState], *counts: int) -> None:
    """Give the seats these many cards by drawing nothing: a test shortcut that keeps
    the count conserved by moving the difference to or from the pile."""
    state = match.state
    diff = sum(counts) - sum(state.hands)
    match._states[-1] = type(state)(  # noqa: SLF001 - a test shortcut
        **{**state.__dict__, "hands": tuple(counts), "pile": state.pile - diff}
    )


# -- the deck -----------------------------------------------------------------------------


def test_deck_has_108_playing_cards_and_two_blank_spares() -> None:
    deck = GAME.deck
    assert deck.size == 110 and GAME.playing_cards == 108
    for colour in COLOURS:
        assert deck.face(f"{colour}-0").copies == 1
        for rest in [*(str(v) for v in range(1, 10)), "skip", "reverse", "draw2"]:
            assert deck.face(f"{colour}-{rest}").copies == 2
    assert deck.face("wild").copies == deck.face("wild-draw4").copies == 4
    assert deck.face("blank").copies == 2 and deck.face("blank").attrs["in_play"] is False


def test_deck_points_are_the_seeds_and_mattels() -> None:
    points = {f.code: (f.attrs["points"], f.attrs["points_official"]) for f in GAME.deck.faces}
    assert points["red-7"] == (7, 7) and points["blue-0"] == (0, 0)
    assert points["green-skip"] == points["yellow-reverse"] == points["red-draw2"] == (25, 20)
    assert points["wild"] == points["wild-draw4"] == (50, 50)


def test_deck_art_names_a_symbol_for_every_face() -> None:
    symbols = {f.code: f.art["symbol"] for f in GAME.deck.faces}
    assert symbols["red-7"] == "uno-number" and symbols["blue-skip"] == "uno-skip"
    assert symbols["green-reverse"] == "uno-reverse" and symbols["yellow-draw2"] == "uno-draw2"
    assert symbols["wild"] == "uno-wild" and symbols["wild-draw4"] == "uno-wild-draw4"
    assert symbols["blank"] == "uno-blank"
    for face in GAME.deck.faces:
        assert set(face.art) == {"title", "colour", "symbol", "corner"}
        assert face.art["colour"].startswith("#") and len(face.art["colour"]) == 7


# -- header, notation, registry --------------------------------------------------------------


def test_uno_is_registered_for_2_to_10_players() -> None:
    assert get_game("uno").name == "uno"
    for seats in (2, 10):
        new_match(seats)
    for seats in (1, 11):
        with pytest.raises(RefereeError, match="UNO is for 2 to 10 players"):
            new_match(seats)


def test_the_house_rules_are_the_defaults() -> None:
    assert dict(new_match().header.options) == {
        "first_card": "house",
        "turned_up_reverse": "dealer_played",
        "wild": "house",
        "wild_draw4": "house",
        "draw2_on_draw2": False,
        "stacking": True,
        "jump_in": True,
        "doubles": True,
        "zero": "pass_all",
        "two_player_reverse": "skip",
        "uno_call": True,
        "challenge": True,
        "scoring": "house",
        "target": 500,
        "ties": "shared",
    }


@pytest.mark.parametrize(
    ("kind", "fields", "problem"),
    [
        ("pass", {}, "unknown move 'pass'; UNO has deal, turn-up, play"),
        ("play", {}, 'a play move needs "cards"'),
        ("play", {"cards": []}, "cards must be a list"),
        ("play", {"cards": ["red-10"]}, "not 'red-10'"),
        ("play", {"cards": ["blank"]}, "not 'blank'"),
        ("play", {"cards": ["wild"]}, 'a wild needs "colour"'),
        ("play", {"cards": ["red-1"], "colour": "red"}, "only a wild names a colour"),
        ("play", {"cards": ["wild"], "colour": "black"}, "colour must be one of red"),
        ("play", {"cards": ["red-1"], "card": "red-1"}, "a play move has no field 'card'"),
        ("draw", {"count": 0}, "count must be at least 1"),
        ("draw", {"count": "one"}, "count must be a number"),
        ("draw", {"count": 1, "cards": ["red-1", "red-2"]}, "at most as many cards"),
        ("catch", {}, 'a catch move needs "target"'),
        ("turn-up", {"card": None}, "not None"),
        ("uno", {"loud": True}, "a uno move has no field 'loud'"),
    ],
)
def test_malformed_moves_are_named(kind: str, fields: dict[str, Any], problem: str) -> None:
    with pytest.raises(RefereeError, match=problem.replace("(", r"\(")):
        GAME.parse_move(0, kind, fields)


def test_the_camera_side_is_the_uno_table() -> None:
    assert isinstance(GAME.interpreter(new_match().header), UnoTable)


# -- deal and UNO-FIRST-CARD ------------------------------------------------------------------


def test_the_dealer_sits_before_the_first_player_and_deals_seven_each() -> None:
    match = new_match(4, first=2)
    assert match.to_play() == 1
    assert rules(match, Move(0, "deal")) == (TURN_RULE,)
    match.undo()
    legal(match, Move(1, "deal"))
    assert match.state.hands == (7, 7, 7, 7) and match.state.pile == 108 - 28
    assert rules(match, play(2, "red-3")) == ("UNO-FIRST-CARD",), "nothing is played before"
    match.undo()
    legal(match, Move(1, "turn-up", {"card": "red-3"}))
    assert match.to_play() == 2 and conserved(match.state)


@pytest.mark.parametrize("wild", WILDS)
def test_house_first_card_a_wild_goes_back_and_another_is_turned(wild: str) -> None:
    match = new_match()
    legal(match, Move(2, "deal"), Move(2, "turn-up", {"card": wild}))
    assert match.state.phase == "turn-up" and match.state.discard == ()
    assert rules(match, play(0, "red-1")) == ("UNO-FIRST-CARD",)
    match.undo()
    legal(match, Move(2, "turn-up", {"card": "blue-5"}), play(0, "blue-1"))
    assert conserved(match.state)


def test_official_first_card_a_wild_stays_and_the_first_player_names_the_colour() -> None:
    match = new_match(first_card="official")
    legal(match, Move(2, "deal"))
    assert rules(match, Move(2, "turn-up", {"card": "wild"})) == ("UNO-FIRST-CARD",)
    match.undo()
    legal(match, Move(2, "turn-up", {"card": "wild", "colour": "green"}), play(0, "green-4"))
    again = new_match(first_card="official")
    legal(again, Move(2, "deal"), Move(2, "turn-up", {"card": "wild-draw4"}))
    assert again.state.phase == "turn-up", "a wild draw 4 still goes back"


def test_first_card_skip_skips_the_first_player() -> None:
    match = started("red-skip")
    assert match.to_play() == 1
    assert rules(match, play(0, "red-4")) == (TURN_RULE, "UNO-JUMP-IN")


def test_first_card_reverse_counts_as_the_dealer_s_so_its_right_plays_first() -> None:
    """The sheet: the card is turned up as if the dealer had played it."""
    match = started("red-reverse", seats=4, first=1)  # seat 0 deals
    assert match.to_play() == 3
    assert rules(match, play(0, "red-4")) == (TURN_RULE, "UNO-JUMP-IN")
    legal(match, play(3, "red-4"))
    assert match.to_play() == 2


def test_first_card_reverse_the_dealer_plays_first_the_other_way_as_an_option() -> None:
    match = started("red-reverse", seats=4, first=1, turned_up_reverse="dealer_first")
    assert match.to_play() == 0
    legal(match, play(0, "red-4"))
    assert match.to_play() == 3


def test_first_card_reverse_with_two_players_the_dealer_plays_again() -> None:
    match = started("red-reverse", seats=2, first=1)  # a reverse is a skip for two
    assert match.to_play() == 0


def test_first_card_draw2_the_first_player_draws_or_defends() -> None:
    match = started("red-draw2")
    assert match.state.stack == 2 and match.to_play() == 0
    legal(match, draw(0, 2))
    assert match.to_play() == 1
    defended = started("red-draw2")
    legal(defended, play(0, "blue-draw2"))
    assert defended.state.stack == 4 and defended.to_play() == 1


def test_first_card_zero_passes_no_hands() -> None:
    match = started("red-0")
    assert match.state.hand_of == (0, 1, 2) and match.to_play() == 0


# -- UNO-MATCH ----------------------------------------------------------------------------------


def test_match_by_colour_or_number() -> None:
    match = started("red-3")
    legal(match, play(0, "red-8"), play(1, "green-8"), play(2, "green-skip"))
    assert rules(match, play(1, "blue-4")) == ("UNO-MATCH",)


def test_after_a_wild_only_the_named_colour_matches() -> None:
    match = started("red-3", wild="official")
    legal(match, play(0, "wild", colour="blue"))
    assert rules(match, play(1, "red-3")) == ("UNO-MATCH",)
    match.undo()
    legal(match, play(1, "blue-3"))


def test_a_draw2_goes_on_another_colours_draw2_only_as_a_defence_in_the_seed() -> None:
    match = started("red-5")
    legal(match, play(0, "red-draw2"), draw(1, 2))
    assert match.to_play() == 2
    assert rules(match, play(2, "blue-draw2")) == ("UNO-MATCH",)
    official = started("red-5", draw2_on_draw2=True)
    legal(official, play(0, "red-draw2"), draw(1, 2), play(2, "blue-draw2"))


# -- UNO-DRAW -----------------------------------------------------------------------------------


def test_draw_one_then_play_it_or_keep_it() -> None:
    match = started("red-3")
    legal(match, draw(0, seen=["red-9"]), play(0, "red-9"))
    assert match.to_play() == 1
    kept = started("red-3")
    legal(kept, draw(0), play(1, "red-4"))
    assert kept.state.hands == (8, 6, 7) and kept.to_play() == 2


def test_a_seat_may_draw_while_holding_a_playable_card() -> None:
    match = started("red-3")
    legal(match, draw(0, seen=["green-1"]))
    assert match.state.known[0] == ("green-1",)


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    match = started("red-3")
    legal(match, draw(0, seen=["red-9"]))
    assert rules(match, play(0, "red-4")) == ("UNO-DRAW",)
    match.undo()
    assert rules(match, draw(0)) == ("UNO-DRAW",), "one card a turn"
    match.undo()
    assert rules(started("red-3"), draw(0, 2)) == ("UNO-DRAW",)


# -- UNO-SKIP and UNO-REVERSE --------------------------------------------------------------------


def test_skip_on_its_colour_or_on_a_skip() -> None:
    match = started("red-3", seats=4)
    legal(match, play(0, "red-skip"))
    assert match.to_play() == 2
    legal(match, play(2, "blue-skip"))
    assert match.to_play() == 0
    legal(match, play(0, "blue-4"))
    assert rules(match, play(1, "green-skip")) == ("UNO-SKIP",)


def test_reverse_turns_play_round_and_two_cancel() -> None:
    match = started("red-3", seats=4)
    legal(match, play(0, "red-reverse"))
    assert match.to_play() == 3
    legal(match, play(3, "green-reverse"))
    assert match.to_play() == 0
    legal(match, play(0, "green-4"))
    assert rules(match, play(1, "blue-reverse")) == ("UNO-REVERSE",)


def test_reverse_with_two_players_acts_as_a_skip_or_only_turns() -> None:
    match = started("red-3", seats=2)
    legal(match, play(0, "red-reverse"))
    assert match.to_play() == 0
    turning = started("red-3", seats=2, two_player_reverse="turn")
    legal(turning, play(0, "red-reverse"))
    assert turning.to_play() == 1


# -- UNO-WILD-RESTRICT and UNO-WD4-RESTRICT ------------------------------------------------------


def test_house_wild_is_legal_while_nothing_is_known_of_the_hand() -> None:
    match = started("red-3")
    ruling = match.play(play(0, "wild", colour="blue"))
    assert ruling.verdict.ok and ruling.deferred == ()
    assert match.state.colour == "blue"


def test_house_wild_with_a_known_matching_card_is_illegal_at_once() -> None:
    match = started("red-3")
    legal(match, draw(0, seen=["green-6"]), play(1, "red-5"), play(2, "red-6"))
    assert rules(match, play(0, "wild", colour="blue")) == ("UNO-WILD-RESTRICT",)
    official = started("red-3", wild="official")
    legal(official, draw(0, seen=["green-6"]), play(1, "red-5"), play(2, "red-6"))
    legal(official, play(0, "wild", colour="blue"))


def test_no_wild_while_a_penalty_is_pending() -> None:
    match = started("red-3")
    legal(match, play(0, "red-draw2"))
    assert rules(match, play(1, "wild", colour="red")) == ("UNO-WILD-RESTRICT",)


def test_house_wild_draw4_as_a_defence_or_without_a_playable_card() -> None:
    match = started("red-3")
    legal(match, play(0, "red-draw2"), play(1, "wild-draw4", colour="green"))
    assert match.state.stack == 6
    known_wild = started("red-3")
    legal(known_wild, draw(0, seen=["wild"]), play(1, "red-5"), play(2, "red-6"))
    assert rules(known_wild, play(0, "wild-draw4", colour="blue")) == ("UNO-WD4-RESTRICT",)


def test_official_wild_draw4_only_the_current_colour_forbids_it() -> None:
    match = started("red-3", wild_draw4="official")
    legal(match, draw(0, seen=["green-3"]), play(1, "red-5"), play(2, "red-6"))
    legal(match, play(0, "wild-draw4", colour="blue"))
    coloured = started("red-3", wild_draw4="official")
    legal(coloured, draw(0, seen=["red-1"]), play(1, "red-5"), play(2, "red-6"))
    assert rules(coloured, play(0, "wild-draw4", colour="blue")) == ("UNO-WD4-RESTRICT",)


# -- UNO-STACK ----------------------------------------------------------------------------------


def test_stacked_penalties_add_up_and_the_first_who_does_not_defend_draws_them() -> None:
    match = started("red-3", seats=4)
    legal(match, play(0, "red-draw2"), play(1, "green-draw2"), play(2, "wild-draw4", colour="blue"))
    assert match.state.stack == 8 and match.to_play() == 3
    legal(match, play(3, "blue-draw2"))
    assert rules(match, draw(0, 8)) == ("UNO-STACK",), "the penalty is 10"
    match.undo()
    legal(match, draw(0, 10))
    assert match.state.stack == 0 and match.to_play() == 1 and conserved(match.state)


def test_on_a_draw4_only_a_draw4_or_a_draw2_of_the_named_colour() -> None:
    match = started("red-3")
    legal(match, play(0, "wild-draw4", colour="green"))
    assert rules(match, play(1, "red-draw2")) == ("UNO-STACK",)
    match.undo()
    assert rules(match, play(1, "green-7")) == ("UNO-STACK",)
    match.undo()
    legal(match, play(1, "green-draw2"))
    assert rules(match, play(2, "yellow-5")) == ("UNO-STACK",)


def test_official_no_stacking_the_target_draws_and_loses_the_turn() -> None:
    match = started("red-3", stacking=False)
    legal(match, play(0, "red-draw2"))
    assert rules(match, play(1, "blue-draw2")) == ("UNO-STACK",)
    match.undo()
    legal(match, draw(1, 2))
    assert match.to_play() == 2


# -- UNO-JUMP-IN -------------------------------------------------------------------------------


def test_jump_in_with_an_identical_card_skips_the_seats_between() -> None:
    match = started("red-3", seats=5)
    legal(match, play(0, "red-7"))
    ruling = match.play(play(3, "red-7"))
    assert ruling.verdict.ok and "jumping in" in ruling.verdict.message
    assert match.to_play() == 4


def test_a_card_out_of_turn_that_is_not_identical_is_flagged() -> None:
    match = started("red-3", seats=4)
    legal(match, play(0, "red-7"))
    assert rules(match, play(2, "green-7")) == (TURN_RULE, "UNO-JUMP-IN")
    no_jumps = started("red-3", seats=4, jump_in=False)
    legal(no_jumps, play(0, "red-7"))
    assert rules(no_jumps, play(2, "red-7")) == (TURN_RULE,)


def test_no_jump_in_with_a_wild() -> None:
    match = started("red-3", seats=4, wild="official")
    legal(match, play(0, "wild", colour="green"))
    assert TURN_RULE in rules(match, play(2, "wild", colour="green"))


def test_a_jump_in_on_a_stacked_draw2_adds_to_it_and_targets_the_seat_after_the_jumper() -> None:
    match = started("red-3", seats=5)
    legal(match, play(0, "red-draw2"), play(3, "red-draw2"))
    assert match.state.stack == 4 and match.to_play() == 4


# -- UNO-DOUBLE ---------------------------------------------------------------------------------


def test_two_identical_cards_at_once_each_takes_effect() -> None:
    match = started("red-3", seats=4)
    legal(match, play(0, "red-skip", "red-skip"))
    assert match.to_play() == 3 and match.state.hands[0] == 5
    legal(match, play(3, "red-draw2", "red-draw2"))
    assert match.state.stack == 4 and match.to_play() == 0


def test_two_different_cards_or_doubles_off_are_flagged() -> None:
    assert rules(started("red-3"), play(0, "red-7", "blue-7")) == ("UNO-DOUBLE",)
    assert rules(started("red-3"), play(0, "red-7", "red-7", "red-7")) == ("UNO-DOUBLE",)
    assert rules(started("red-3", doubles=False), play(0, "red-7", "red-7")) == ("UNO-DOUBLE",)


# -- UNO-ZERO -----------------------------------------------------------------------------------


def test_a_zero_passes_every_hand_on_in_the_current_direction() -> None:
    match = started("red-3", seats=3)
    legal(match, draw(0, seen=["blue-9"]), play(1, "red-5"), play(2, "red-0"))
    assert match.state.hands == (6, 8, 6)
    assert match.state.known[match.state.hand_of[1]] == ("blue-9",), "seat 0's hand is seat 1's"
    reverse = started("red-3", seats=3)
    legal(reverse, play(0, "red-reverse"), play(2, "red-0"))
    assert reverse.state.hands == (7, 6, 6)
    assert reverse.state.hand_of == (1, 2, 0), "counter-clockwise: each hand to the right"


def test_zero_as_the_last_card_passes_nothing() -> None:
    match = started("red-3", seats=3)
    set_hands(match, 1, 7, 7)
    legal(match, play(0, "red-0"))
    assert match.state.phase == "reveal" and match.state.hand_of == (0, 1, 2)


def test_zero_swap_one_and_none() -> None:
    match = started("red-3", zero="swap_one")
    assert rules(match, play(0, "red-0")) == ("UNO-ZERO",)
    match.undo()
    legal(match, play(0, "red-0", swap=2))
    assert match.state.hand_of == (2, 1, 0)
    nothing = started("red-3", zero="none")
    legal(nothing, play(0, "red-0"))
    assert nothing.state.hand_of == (0, 1, 2)
    assert rules(started("red-3"), play(0, "red-0", swap=1)) == ("UNO-ZERO",)


# -- UNO-CALL -----------------------------------------------------------------------------------


def test_caught_without_uno_draws_two() -> None:
    match = started("red-3")
    set_hands(match, 2, 7, 7)
    legal(match, play(0, "red-4"), catch(2, 0))
    assert match.to_play() == 0, "seat 0 draws its 2 first"
    assert rules(match, play(1, "red-5")) == ()
    match.undo()
    assert rules(match, draw(0, 1)) == ("UNO-CALL",)
    match.undo()
    legal(match, draw(0, 2))
    assert match.state.hands[0] == 3


def test_a_called_uno_or_a_late_catch_is_flagged() -> None:
    match = started("red-3")
    set_hands(match, 2, 7, 7)
    legal(match, uno(0), play(0, "red-4"))
    assert rules(match, catch(2, 0)) == ("UNO-CALL",)
    late = started("red-3")
    set_hands(late, 2, 7, 7)
    legal(late, play(0, "red-4"), play(1, "red-5"))
    assert rules(late, catch(2, 0)) == ("UNO-CALL",)
    assert rules(late, catch(2, 1)) == ("UNO-CALL",), "seat 1 holds 6 cards"
    assert rules(started("red-3", uno_call=False), uno(0)) == ("UNO-CALL",)


# -- UNO-CHALLENGE ------------------------------------------------------------------------------


def test_a_challenge_the_accused_played_legally_the_challenger_draws_six() -> None:
    match = started("red-3")
    set_hands(match, 3, 7, 7)
    legal(match, play(0, "wild-draw4", colour="blue"), challenge(1))
    assert rules(match, play(1, "blue-draw2")) == ("UNO-CHALLENGE",)
    match.undo()
    ruling = match.play(reveal(0, "blue-1", "green-7"))
    assert ruling.verdict.ok and ruling.deferred == ()
    assert "was legal, and seat 1 draws 6" in ruling.verdict.message
    legal(match, draw(1, 6))
    assert match.to_play() == 2 and match.state.hands == (2, 13, 7)


def test_a_challenge_proves_the_wild_draw4_illegal_the_accused_draws_four() -> None:
    match = started("red-3")
    set_hands(match, 3, 7, 7)
    legal(match, play(0, "wild-draw4", colour="blue"), challenge(1))
    ruling = match.play(reveal(0, "red-9", "green-7"))
    assert "was illegal, and seat 0 draws 4" in ruling.verdict.message
    [proof] = ruling.deferred
    assert proof.verdict.concerns == 2 and proof.move.seat == 0
    assert proof.verdict.rules == ("UNO-WD4-RESTRICT",)
    legal(match, draw(0, 4), play(1, "blue-5"))
    assert match.state.hands == (6, 6, 7)


def test_only_the_target_challenges_and_only_a_wild_draw4() -> None:
    match = started("red-3")
    assert rules(match, challenge(1)) == ("UNO-CHALLENGE",)
    legal(match, play(0, "wild-draw4", colour="blue"))
    assert rules(match, challenge(2)) == ("UNO-CHALLENGE",)
    assert rules(started("red-3", challenge=False), challenge(1)) == ("UNO-CHALLENGE",)


# -- UNO-RESHUFFLE ------------------------------------------------------------------------------


def test_the_discards_under_the_top_become_the_new_pile() -> None:
    match = started("red-3", seats=2)
    set_hands(match, 50, 50)
    assert match.state.pile == 7
    legal(match, play(0, "red-4"), play(1, "red-5"), play(0, "red-6"), play(1, "red-7"))
    legal(match, play(0, "red-draw2"), play(1, "wild-draw4", colour="blue"))
    legal(match, play(0, "blue-draw2"), draw(1, 8))
    assert match.state.discard == ("blue-draw2",) and match.state.pile == 6
    assert conserved(match.state)
    assert rules(match, draw(0, 7)) == ("UNO-RESHUFFLE",)


# -- UNO-SCORE and UNO-GAME-END -----------------------------------------------------------------


def test_house_scoring_each_other_seat_scores_its_own_hand() -> None:
    match = started("red-3")
    set_hands(match, 1, 3, 2)
    legal(match, play(0, "red-5"))
    assert match.state.phase == "reveal" and match.to_play() == 1
    assert rules(match, play(1, "red-6")) == ("UNO-SCORE",)
    match.undo()
    legal(match, reveal(1, "red-skip", "wild", "blue-4"))
    assert rules(match, reveal(1, "red-1")) == ("UNO-SCORE",)
    match.undo()
    assert rules(match, reveal(0)) == ("UNO-SCORE",)
    match.undo()
    ruling = match.play(reveal(2, "green-draw2", "yellow-9"))
    assert "round 1 scored" in ruling.verdict.message
    assert match.result() == {"final": False, "scores": {"0": 0, "1": 79, "2": 34}, "winners": []}
    assert match.state.phase == "deal" and match.state.dealer == 0 and match.state.round == 2


def test_official_scoring_the_winner_takes_every_hand_at_20_for_actions() -> None:
    match = started("red-3", scoring="official")
    set_hands(match, 1, 3, 2)
    legal(match, play(0, "red-5"), reveal(1, "red-skip", "wild", "blue-4"))
    legal(match, reveal(2, "green-draw2", "yellow-9"))
    assert match.result()["scores"] == {"0": 103, "1": 0, "2": 0}


def test_a_last_draw2_is_drawn_first_and_counts() -> None:
    match = started("red-3")
    set_hands(match, 1, 3, 2)
    legal(match, play(0, "red-draw2"))
    assert match.to_play() == 1
    assert rules(match, reveal(1, "red-1", "red-2", "red-4")) == ("UNO-SCORE",)
    match.undo()
    legal(match, draw(1, 2), reveal(1, "red-1", "red-2", "red-4", "blue-5", "blue-6"))
    legal(match, reveal(2, "red-7", "red-8"))
    assert match.result()["scores"] == {"0": 0, "1": 18, "2": 15}


def finish_round(match: Match[UnoState], out: int, points: dict[int, list[str]]) -> None:
    """Seat `out` goes out with a red 5 on a red top; the others show `points`."""
    state = match.state
    dealer = state.dealer
    legal(match, Move(dealer, "deal"), Move(dealer, "turn-up", {"card": "red-3"}))
    counts = [len(points.get(seat, [])) for seat in range(state.seats)]
    counts[out] = 1
    set_hands(match, *counts)
    match._states[-1] = type(match.state)(  # noqa: SLF001 - the seat going out plays next
        **{**match.state.__dict__, "turn": match.state.turn.at(out)}
    )
    legal(match, play(out, "red-5"))
    for seat, cards in points.items():
        legal(match, reveal(seat, *cards))


def test_the_game_ends_at_500_and_the_lowest_total_wins() -> None:
    match = new_match(3)
    for _ in range(3):
        finish_round(match, 0, {1: ["wild", "wild", "wild"], 2: ["red-9"]})
    assert match.result() == {"final": False, "scores": {"0": 0, "1": 450, "2": 27}, "winners": []}
    assert match.state.phase == "deal"
    finish_round(match, 2, {0: ["red-9"], 1: ["wild", "wild"]})
    assert match.result() == {"final": True, "scores": {"0": 9, "1": 550, "2": 27}, "winners": [0]}


def test_the_game_ends_once_a_total_reaches_the_target() -> None:
    match = new_match(3, target=100)
    finish_round(match, 0, {1: ["wild", "wild"], 2: ["red-9"]})
    assert match.result() == {"final": True, "scores": {"0": 0, "1": 100, "2": 9}, "winners": [0]}
    assert rules(match, Move(1, "deal")) == ("UNO-GAME-END",)


def test_equal_lowest_totals_share_the_win_or_play_on() -> None:
    shared = new_match(3, target=100)
    finish_round(shared, 0, {1: ["wild", "wild"], 2: []})
    assert shared.result()["winners"] == [0, 2]
    on = new_match(3, target=100, ties="play_on")
    finish_round(on, 0, {1: ["wild", "wild"], 2: []})
    assert on.result()["final"] is False
    finish_round(on, 2, {0: ["red-1"], 1: ["red-1"]})
    assert on.result() == {"final": True, "scores": {"0": 1, "1": 101, "2": 0}, "winners": [2]}


def test_official_game_end_the_first_to_the_target_wins() -> None:
    match = new_match(3, target=100, scoring="official")
    finish_round(match, 1, {0: ["wild", "wild"], 2: ["red-skip"]})
    assert match.result() == {"final": True, "scores": {"0": 0, "1": 120, "2": 0}, "winners": [1]}


# -- deferred verdicts --------------------------------------------------------------------------


def test_a_wild_while_holding_a_match_is_proven_by_a_later_reveal() -> None:
    match = started("red-3")
    set_hands(match, 3, 3, 2)
    legal(match, play(0, "wild", colour="blue"), play(1, "blue-5"), play(2, "blue-6"))
    legal(match, play(0, "blue-7"), play(1, "blue-8"))
    ruling = match.play(play(2, "blue-9"))
    assert match.state.phase == "reveal"
    ruling = match.play(reveal(0, "red-8"))
    assert ruling.verdict.ok
    [proof] = ruling.deferred
    assert proof.index == 8 and proof.move == play(0, "wild", colour="blue")
    assert proof.to_json() == {
        "index": 8,
        "seat": 0,
        "ok": False,
        "rules": ["UNO-WILD-RESTRICT"],
        "message": "seat 0 held red-8 when it played a wild on red-3 (red) at move 3: "
        "more than it can have drawn since",
        "concerns": 2,
    }


def test_not_proven_when_the_matching_card_may_have_been_drawn_since() -> None:
    match = started("red-3")
    legal(match, play(0, "wild", colour="blue"), play(1, "blue-5"), play(2, "blue-6"))
    legal(match, draw(0), play(1, "blue-8"))
    ruling = match.play(reveal(0, *(["red-8"] + ["green-1"] * 6)))
    assert ruling.deferred == ()
    assert len(match.state.suspicions) == 1, "still suspect"
    two = started("red-3")
    legal(two, play(0, "wild", colour="blue"), play(1, "blue-5"), play(2, "blue-6"))
    legal(two, draw(0), play(1, "blue-8"))
    [proof] = two.play(reveal(0, *(["red-8", "red-9"] + ["green-1"] * 5))).deferred
    assert proof.verdict.concerns == 2, "two matching cards, at most one drawn since"


def test_a_later_play_of_a_held_matching_card_proves_it() -> None:
    match = started("red-3")
    legal(match, play(0, "wild", colour="blue"), play(1, "blue-3"))
    ruling = match.play(play(2, "red-3"))
    assert ruling.deferred == (), "another seat's card proves nothing about seat 0"
    ruling = match.play(play(0, "red-4"))
    [proof] = ruling.deferred
    assert proof.verdict.concerns == 2 and proof.move.seat == 0


def test_a_face_up_draw_of_the_matching_card_proves_nothing() -> None:
    match = started("red-3")
    legal(match, play(0, "wild", colour="blue"), play(1, "blue-3"), play(2, "red-3"))
    legal(match, draw(0, seen=["red-4"]), play(0, "red-4"))
    assert match.rulings[-1].deferred == ()


def test_the_proof_follows_a_hand_passed_on_a_zero_and_names_the_offender() -> None:
    match = started("red-3")
    legal(match, play(0, "wild", colour="blue"), play(1, "blue-0"))
    assert match.state.hand_of == (2, 0, 1), "seat 1 now holds the hand seat 0 played from"
    legal(match, play(2, "blue-4"), play(0, "blue-5"))
    ruling = match.play(reveal(1, *(["red-7"] + ["green-1"] * 5)))
    [proof] = ruling.deferred
    assert proof.move.seat == 0 and proof.verdict.concerns == 2
    assert proof.to_json()["seat"] == 0 and proof.index == 6


def test_official_wild_is_never_suspect_and_a_defence_never_is() -> None:
    match = started("red-3", wild="official")
    legal(match, play(0, "wild", colour="blue"))
    assert match.state.suspicions == ()
    defence = started("red-3")
    legal(defence, play(0, "red-draw2"), play(1, "wild-draw4", colour="blue"))
    assert defence.state.suspicions == ()


# -- whole rounds with real hands -----------------------------------------------------------------


FULL_DECK = [
    face.code for face in GAME.deck.faces if face.code != "blank" for _ in range(face.copies)
]


class Table:
    """A real table: the shuffled deck, each seat's real hand, players who follow the
    house rules (or, as `cheat` says, play a wild while holding a match), and the
    match the referee keeps from the moves alone."""

    def __init__(self, seed: int, seats: int, cheat: float = 0.0, **options: Any) -> None:
        self.rng = random.Random(seed)
        self.match = new_match(seats, first=self.rng.randrange(seats), **options)
        self.cheat = cheat
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.pile: list[str] = []
        self.discard: list[str] = []
        #: For each wild played: did its seat really hold a card that forbade it?
        self.truth: dict[int, bool] = {}

    @property
    def state(self) -> UnoState:
        return self.match.state

    def move(self, move: Move, cheated: bool = False) -> None:
        index = len(self.match.rulings)
        if move.kind == "play" and move.get("cards")[0] in WILDS and not self.state.stack:
            code = move.get("cards")[0]
            rule = "UNO-WILD-RESTRICT" if code == "wild" else "UNO-WD4-RESTRICT"
            held = set(self.hands[move.seat]) - set(move.get("cards"))
            self.truth[index] = bool(held & GAME.forbidding(self.state, rule))
        ruling = self.match.play(move)
        if not cheated and not (move.kind == "play" and index in self.truth):
            assert ruling.verdict.ok, (move, ruling.verdict)
        for proof in ruling.deferred:
            assert self.truth[proof.verdict.concerns], "a deferred verdict is always true"

    def take(self, seat: int, count: int) -> None:
        for _ in range(count):
            if not self.pile:
                self.pile, self.discard = self.discard[:-1], self.discard[-1:]
                self.rng.shuffle(self.pile)
            self.hands[seat].append(self.pile.pop())

    def check(self) -> None:
        state = self.state
        assert conserved(state)
        if state.phase not in ("play", "reveal"):
            return
        assert list(state.hands) == [len(hand) for hand in self.hands]
        assert state.pile == len(self.pile) and list(state.discard) == self.discard
        for seat, hand in enumerate(self.hands):
            known = Counter(state.known[state.hand_of[seat]])
            assert not known - Counter(hand), "what the referee knows is in the hand"

    def deal(self) -> None:
        dealer = self.state.dealer
        self.pile = list(FULL_DECK)
        self.rng.shuffle(self.pile)
        self.discard = []
        self.hands = [[self.pile.pop() for _ in range(7)] for _ in self.hands]
        self.move(Move(dealer, "deal"))
        while self.state.phase == "turn-up":
            card = self.pile.pop()
            fields: dict[str, Any] = {"card": card}
            self.move(Move(dealer, "turn-up", fields))
            if self.state.phase == "turn-up":
                self.pile.insert(self.rng.randrange(len(self.pile) + 1), card)
            else:
                self.discard.append(card)

    def playable(self, seat: int) -> list[str]:
        state = self.state
        hand = self.hands[seat]
        if state.stack:
            top = state.top
            return [
                c for c in hand
                if c == "wild-draw4"
                or (top != "wild-draw4" and c.endswith("draw2"))
                or (top == "wild-draw4" and c == f"{state.colour}-draw2")
            ]
        matching = [c for c in hand if c not in WILDS and GAME._matches(state, GAME.card(c))]  # noqa: SLF001
        if matching:
            return matching
        return [c for c in hand if c == "wild"] or [c for c in hand if c == "wild-draw4"]

    def play(self, seat: int, code: str, cheated: bool = False) -> None:
        hand = self.hands[seat]
        cards = [code]
        if hand.count(code) > 1 and self.rng.random() < 0.5 and self.state.drawer != seat:
            cards = [code, code]
        if len(hand) - len(cards) == 1:
            self.move(uno(seat))
        colour = self.rng.choice(COLOURS) if code in WILDS else None
        for card in cards:
            hand.remove(card)
        self.discard += cards
        self.move(play(seat, *cards, colour=colour), cheated)
        if code.endswith("-0") and self.state.phase == "play":
            order = self.state.turn
            for _ in cards:
                self.hands = [self.hands[order.before(s)] for s in range(len(self.hands))]

    def turn(self) -> None:
        state = self.state
        if state.debts:
            debt = state.debts[0]
            self.take(debt.seat, debt.count)
            self.move(draw(debt.seat, debt.count))
            return
        if state.phase == "reveal":
            seat = GAME.to_play(state)
            assert seat is not None
            self.move(reveal(seat, *self.hands[seat]))
            return
        if state.wd4 is not None and self.rng.random() < 0.5:
            accused = state.wd4.seat
            self.move(challenge(state.turn.current))
            self.move(reveal(accused, *self.hands[accused]))
            return
        jumper = self.jumper()
        if jumper is not None:
            self.play(jumper, str(state.top))
            return
        seat = state.turn.current
        if state.drawer == seat:
            seat = state.turn.after(seat)
        wild = [c for c in self.hands[seat] if c == "wild"]
        if wild and not state.stack and state.top not in WILDS and self.rng.random() < self.cheat:
            self.play(seat, "wild", cheated=True)
            return
        options = self.playable(seat)
        if options:
            self.play(seat, self.rng.choice(options))
        elif state.stack:
            self.take(seat, state.stack)
            self.move(draw(seat, state.stack))
        else:
            # Draw one; play it when it fits, else keep it (the next seat moves on).
            self.take(seat, 1)
            self.move(draw(seat, 1))
            if self.hands[seat][-1] in self.playable(seat):
                self.play(seat, self.hands[seat][-1])

    def jumper(self) -> int | None:
        """Now and then a seat out of turn holds the top card and jumps in."""
        state = self.state
        if state.top in WILDS or self.rng.random() < 0.5:
            return None
        seats = [s for s, hand in enumerate(self.hands) if s != state.turn.current]
        return next((s for s in seats if state.top in self.hands[s]), None)

    def round(self) -> None:
        self.deal()
        start = self.state.round
        for _ in range(2000):
            if self.state.round != start or self.state.phase == "over":
                return
            self.turn()
            self.check()
        raise AssertionError("a round that never ends")


@pytest.mark.parametrize(("seed", "seats"), [(1, 2), (2, 3), (3, 4), (4, 6), (5, 10)])
def test_whole_rounds_with_real_hands_are_legal_and_conserve_every_card(
    seed: int, seats: int
) -> None:
    table = Table(seed, seats)
    table.round()
    totals = table.state.totals
    assert sum(totals) > 0 and table.state.round == 2
    assert all(not ruling.deferred for ruling in table.match.rulings)


def test_a_whole_game_to_the_target_with_real_hands() -> None:
    table = Table(7, 4, target=200)
    for _ in range(40):
        if table.state.phase == "over":
            break
        table.round()
    result = table.match.result()
    assert result["final"] is True and max(table.state.totals) >= 200
    lowest = min(table.state.totals)
    assert result["winners"] == [s for s, t in enumerate(table.state.totals) if t == lowest]


def test_cheating_wilds_are_flagged_only_when_proven_and_every_proof_is_true() -> None:
    proven = cheats = 0
    for seed in range(12):
        table = Table(100 + seed, 3, cheat=0.6)
        table.round()
        cheats += sum(table.truth.values())
        proven += sum(len(ruling.deferred) for ruling in table.match.rulings)
    assert cheats > 0 and 0 < proven <= cheats


class WatchedTable(Table):
    """A real table whose page is watched: before every move, whatever the page offers
    is judged legal, and the table's own calls and challenges were on offer. Now and
    then a player forgets to call, and is caught through the page's offer."""

    def __init__(self, seed: int, seats: int) -> None:
        super().__init__(seed, seats)
        self.entered: Counter[str] = Counter()

    def move(self, move: Move, cheated: bool = False) -> None:
        state = self.state
        offers = {offer.kind: offer for offer in GAME.page_moves(state)}
        for offer in offers.values():
            assert offer.fields == ()  # the table names every colour: no colour to ask
            for seat in offer.seats:
                verdict = GAME.judge(state, GAME.parse_move(seat, offer.kind, dict(offer.fixed)))
                assert verdict.ok and verdict.severity == "ok", (offer, seat, verdict)
        if move.kind == "challenge":
            assert move.seat in offers["challenge"].seats
        if move.kind == "uno" and state.hands[move.seat] <= 2 and move.seat not in state.called:
            assert move.seat in offers["uno"].seats
        if move.kind == "uno" and self.rng.random() < 0.3:
            return  # the player forgot to call
        if move.kind in offers:
            self.entered[move.kind] += 1
        super().move(move, cheated)

    def turn(self) -> None:
        catch = next((o for o in GAME.page_moves(self.state) if o.kind == "catch"), None)
        if catch is not None and self.rng.random() < 0.7:
            self.move(Move(self.rng.choice(catch.seats), "catch", dict(catch.fixed)))
            return
        super().turn()


def test_whole_rounds_enter_on_the_page_only_what_is_legal() -> None:
    entered: Counter[str] = Counter()
    for seed in range(16):
        table = WatchedTable(200 + seed, 2 + seed % 5)
        table.round()
        entered += table.entered
    assert set(entered) == {"uno", "catch", "challenge"}, entered


def test_every_rule_id_is_one_the_module_can_name() -> None:
    package = Path(__file__).parents[3] / "referee" / "games" / "uno"
    text = "".join(source.read_text(encoding="utf-8") for source in package.glob("*.py"))
    for rule in RULE_IDS:
        assert f'"{rule}"' in text, rule


# -- the logs -----------------------------------------------------------------------------------


def check(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    code = main(["referee", "check", "--game", "uno", str(FIXTURES / f"{name}.jsonl")])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_the_round_log_is_legal_and_scored(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = check("round", capsys)
    assert code == 0 and err == ""
    assert all(line["ok"] for line in lines[:-1])
    assert lines[-1] == {"final": False, "scores": {"0": 0, "1": 107}, "winners": []}


def test_the_flagged_log_names_each_rule(capsys: pytest.CaptureFixture[str]) -> None:
    _, lines, _ = check("flagged", capsys)
    flagged = [tuple(line["rules"]) for line in lines[:-1] if not line["ok"]]
    assert flagged == [
        ("UNO-MATCH",),
        ("UNO-DOUBLE",),
        (TURN_RULE, "UNO-JUMP-IN"),
        ("UNO-MATCH",),
        ("UNO-WILD-RESTRICT",),
        ("UNO-STACK",),
        ("UNO-STACK",),
        ("UNO-DRAW",),
        ("UNO-CALL",),
        ("UNO-SKIP",),
    ]


def test_the_deferred_log_prints_the_proof_after_the_move_that_proved_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, lines, _ = check("deferred", capsys)
    assert all(line["ok"] for line in lines[:9])
    assert lines[9] == {
        "index": 8,
        "seat": 2,
        "ok": False,
        "rules": ["UNO-WILD-RESTRICT"],
        "message": "seat 2 held red-8 when it played a wild on red-9 (red) at move 4: "
        "more than it can have drawn since",
        "concerns": 3,
    }
    assert len(lines) == 11


def test_a_malformed_log_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = check("malformed", capsys)
    assert code == 2 and lines == []
    assert err.strip().endswith('line 5: a wild needs "colour", the colour its player names')


def test_the_documented_uno_log_and_check_lines_are_what_tableref_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = NOTATION_DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## UNO") :]
    for name in ("round", "deferred"):
        assert (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").strip() in section
    printed = {
        json.dumps(line)
        for name in ("round", "deferred", "flagged")
        for line in check(name, capsys)[1]
    }
    shown = [line for line in section.splitlines() if line.startswith(('{"index"', '{"final"'))]
    assert len(shown) >= 5
    assert set(shown) <= printed


# -- a wild's colour named but not seen ("colour": null) -----------------------------------


def unseen_wild(seat: int, code: str = "wild") -> Move:
    return Move(seat, "play", {"cards": [code], "colour": None})


def test_a_null_colour_is_read_on_a_wild_only() -> None:
    assert GAME.parse_move(0, "play", {"cards": ["wild"], "colour": None}).get("colour") is None
    assert GAME.parse_move(0, "turn-up", {"card": "wild", "colour": None}).get("colour") is None
    with pytest.raises(RefereeError, match="colour must be one of"):
        GAME.parse_move(0, "play", {"cards": ["red-3"], "colour": None})


def test_after_a_wild_of_unseen_colour_the_next_card_is_not_checked_then_counts() -> None:
    match = started("red-3", wild="official")
    verdicts = run(match, unseen_wild(0), play(1, "blue-5"))
    assert verdicts[0].ok and verdicts[0].severity == "ok"
    assert verdicts[1].ok and verdicts[1].severity == "warning"
    assert "not seen" in verdicts[1].message
    assert match.state.colour == "blue"
    assert rules(match, play(2, "green-7")) == ("UNO-MATCH",)


def test_a_wild_on_a_wild_of_unseen_colour_raises_no_suspicion() -> None:
    match = started("red-3", wild="official")
    legal(match, unseen_wild(0))
    verdict = match.play(unseen_wild(1, "wild-draw4")).verdict
    assert verdict.ok and verdict.severity == "warning"
    assert match.state.suspicions == ()


def test_a_draw2_on_a_draw4_of_unseen_colour_is_not_checked_a_plain_card_still_is() -> None:
    match = started("red-3", wild="official", wild_draw4="official")
    legal(match, unseen_wild(0, "wild-draw4"))
    assert rules(match, play(1, "green-5")) == ("UNO-STACK",)
    match.undo()
    verdict = match.play(play(1, "green-draw2")).verdict
    assert verdict.ok and verdict.severity == "warning"
    assert match.state.stack == 6


def test_an_official_wild_turn_up_of_unseen_colour() -> None:
    match = new_match(first_card="official")
    legal(match, Move(2, "deal"), Move(2, "turn-up", {"card": "wild", "colour": None}))
    verdict = match.play(play(0, "yellow-1")).verdict
    assert verdict.ok and verdict.severity == "warning"


# -- the camera side: UnoTable --------------------------------------------------------------

TABLE = GAME.interpreter(new_match().header)


def pile(*codes: str | None, x: float = 0.0) -> list[ViewCard]:
    return [ViewCard(code, x + 3.0 * i, 2.0) for i, code in enumerate(codes)]


def view(*cards: ViewCard) -> TableView:
    return TableView((ViewCard("back", 110.0, 0.0), *cards))


def last_of(match: Match[UnoState]) -> Any:
    return match.rulings[-1] if match.rulings else None


def moves(actions: list[Any]) -> list[Any]:
    return [a.move.to_json() if isinstance(a, Play) else type(a).__name__ for a in actions]


def on_view(match: Match[UnoState], *cards: ViewCard, table: UnoTable = TABLE) -> list[Any]:
    return moves(table.on_view(match.state, view(*cards), last_of(match)))


def on_press(match: Match[UnoState], seat: int, kind: str) -> list[Any]:
    return moves(TABLE.on_press(match.state, Press(seat, kind), last_of(match)))  # type: ignore[arg-type]


def test_table_the_first_card_on_the_pile_is_the_deal_and_turn_up() -> None:
    match, table = new_match(), UnoTable(GAME)
    assert on_view(match, table=table) == []
    assert on_view(match, *pile("red-3"), table=table) == [
        {"seat": 2, "move": "deal"}, {"seat": 2, "move": "turn-up", "card": "red-3"},
    ]


def test_table_last_rounds_pile_is_not_a_deal_until_it_is_cleared() -> None:
    match, table = new_match(), UnoTable(GAME)
    assert on_view(match, *pile("red-3"), table=table) == []
    assert on_view(match, table=table) == []
    assert on_view(match, *pile("blue-1"), table=table)[1]["card"] == "blue-1"


def test_table_a_turned_up_wild_goes_back_and_the_next_card_is_turned_up() -> None:
    match = new_match()
    legal(match, Move(2, "deal"), Move(2, "turn-up", {"card": "wild"}))
    assert on_view(match, *pile("wild")) == []
    assert on_view(match, *pile("green-4")) == [
        {"seat": 2, "move": "turn-up", "card": "green-4"}
    ]


def test_table_a_new_top_is_a_play_by_the_seat_to_play() -> None:
    match = started("red-3")
    assert on_view(match, *pile("red-3")) == []
    assert on_view(match, *pile("red-9")) == [{"seat": 0, "move": "play", "cards": ["red-9"]}]
    assert on_view(match, *pile("red-3", "red-9")) == [
        {"seat": 0, "move": "play", "cards": ["red-9"]}
    ]


def test_table_a_wild_is_played_with_its_colour_unseen() -> None:
    match = started("red-3")
    assert on_view(match, *pile("wild-draw4")) == [
        {"seat": 0, "move": "play", "cards": ["wild-draw4"], "colour": None}
    ]


def test_table_after_a_draw_the_next_seat_plays() -> None:
    match = started("red-3")
    legal(match, draw(0))
    assert on_view(match, *pile("red-5"))[0]["seat"] == 1


def test_table_two_new_cards_an_unreadable_top_or_an_empty_pile_are_asked() -> None:
    match = started("red-3")
    assert on_view(match, *pile("red-5", "red-6")) == ["AskTable"]
    assert on_view(match, *pile(None)) == ["AskTable"]
    assert on_view(match) == ["AskTable"]
    assert match.state.index == 2


def test_table_a_top_the_referee_cannot_explain_is_asked() -> None:
    match = started("red-3")
    legal(match, play(0, "red-3"), play(1, "blue-3"))
    assert on_view(match, *pile("red-3")) == ["AskTable"]  # both red 3s are down already
    set_hands(match, 1, 6, 6)
    legal(match, play(2, "blue-5"), play(0, "blue-9"))
    assert on_view(match, *pile("blue-6")) == []  # the round is over: hands, not the pile


def test_table_a_flagged_play_taken_back_is_a_takeback() -> None:
    match = started("red-3")
    assert not match.play(play(0, "blue-7")).verdict.ok
    assert on_view(match, *pile("blue-7")) == []
    assert on_view(match, *pile("red-3")) == ["TakeBack"]


def test_table_a_flagged_play_swapped_in_one_reach_is_taken_back_then_read_again() -> None:
    match = started("red-3")
    assert not match.play(play(0, "blue-7")).verdict.ok
    # the blue 7 picked up and the red 9 put down under one hand: the pile shows neither
    assert on_view(match, *pile("red-9")) == ["TakeBack"]
    match.undo()
    assert on_view(match, *pile("red-9")) == [{"seat": 0, "move": "play", "cards": ["red-9"]}]


def test_table_a_press_out_of_turn_is_a_jump_in() -> None:
    match = started("red-3")
    assert on_press(match, 2, "press") == [{"seat": 2, "move": "play", "cards": ["red-3"]}]
    assert match.play(play(2, "red-3")).verdict.message == "on red-3, jumping in"


def test_table_a_press_by_the_last_player_is_a_double() -> None:
    match = started("red-3")
    legal(match, play(0, "red-9"))
    actions = TABLE.on_press(match.state, Press(0, "press"), last_of(match))
    assert moves(actions) == ["TakeBack", {"seat": 0, "move": "play", "cards": ["red-9", "red-9"]}]


def test_table_a_press_by_the_seat_to_play_is_an_identical_card() -> None:
    match = started("red-3")
    legal(match, play(0, "red-9"))
    assert on_press(match, 1, "press") == [{"seat": 1, "move": "play", "cards": ["red-9"]}]
    assert match.play(play(1, "red-9")).verdict.message == "on red-9"


def test_table_a_hold_draws_what_the_referee_says() -> None:
    match = started("red-3")
    assert on_press(match, 0, "hold") == [{"seat": 0, "move": "draw", "count": 1}]
    legal(match, play(0, "red-draw2"), play(1, "blue-draw2"))
    assert on_press(match, 2, "hold") == [{"seat": 2, "move": "draw", "count": 4}]


def test_table_a_double_press_by_the_last_mover_takes_its_move_back() -> None:
    match = started("red-3")
    legal(match, play(0, "red-9"))
    assert on_press(match, 0, "double") == ["TakeBack"]
    assert on_press(match, 1, "double") == []


def test_table_seats_sit_evenly_from_the_bottom_clockwise() -> None:
    assert UnoTable.seat_place(0, 4) == pytest.approx((0.0, 170.0))
    assert UnoTable.seat_place(1, 4) == pytest.approx((-250.0, 0.0))
    assert UnoTable.seat_place(2, 4) == pytest.approx((0.0, -170.0))


def round_end() -> Match[UnoState]:
    match = started("red-3", seats=4, first=0)
    set_hands(match, 1, 3, 2, 2)
    legal(match, play(0, "red-5"))
    assert match.state.phase == "reveal"
    return match


def test_table_hands_laid_at_the_round_end_are_revealed() -> None:
    match = round_end()
    hand = [ViewCard("blue-1", -250.0, -20.0), ViewCard("wild", -250.0, 40.0),
            ViewCard("green-2", -220.0, 10.0)]
    top = [ViewCard("yellow-5", 0.0, -170.0), ViewCard("red-9", 60.0, -170.0)]
    assert on_view(match, *pile("red-5"), *hand, *top) == [
        {"seat": 1, "move": "reveal", "cards": ["blue-1", "green-2", "wild"]},
        {"seat": 2, "move": "reveal", "cards": ["red-9", "yellow-5"]},
    ]


def test_table_a_hand_seen_short_is_asked_not_revealed() -> None:
    match = round_end()
    short = [ViewCard("blue-1", -250.0, -20.0), ViewCard("wild", -250.0, 40.0)]
    assert on_view(match, *pile("red-5"), *short) == ["AskTable"]


def test_table_a_hand_with_an_unread_card_is_asked_not_revealed() -> None:
    match = round_end()
    assert on_view(match, *pile("red-5"), ViewCard(None, 250.0, 0.0)) == ["AskTable"]
