"""Remi pe tablă: every rule of shared/rules/remi.md by its id, legal and illegal, the
racks counted and what a shown rack proves later, round scoring, random fair games and
the example log."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from referee.core import Header, Match, Move, Ruling, Verdict
from referee.games import get_game
from referee.games.remi import Meld, Remi, RemiState
from referee.games.remi.rules import round_scores
from referee.games.remi.state import extended, read_meld
from referee.notation import read_log, replay
from referee.table import Play, Press, TakeBack
from referee.text import LANGUAGES, catalogue, untranslated

GAME = Remi()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "referee" / "remi"
NOTATION_DOC = Path(__file__).parents[3] / "docs" / "notation.md"
RULE_IDS = [
    "REMI-RUN", "REMI-SET", "REMI-ACE", "REMI-JOLY", "REMI-JOLY-RATIO", "REMI-VALUES",
    "REMI-OPEN-ROUND", "REMI-OPEN-45", "REMI-OPEN-RUN", "REMI-OPEN-PARTIAL", "REMI-DRAW",
    "REMI-RUPERE-LAST", "REMI-PE-TABLA", "REMI-RUPERE-ANY", "REMI-FIRST-DISCARD-DEAD",
    "REMI-LAYOFF", "REMI-JOLY-LAYOFF-OWN", "REMI-JOLY-SWAP", "REMI-JOLY-SET", "REMI-DISCARD",
    "REMI-CLOSE", "REMI-ATU", "REMI-GAME-END",
]
#: An opening worth 45: a run 10-11-12 (30) and a set of 9s with a joly (15).
OPENING = [["red-10", "red-11", "red-12"], ["blue-9", "joker", "black-9"]]


def new_match(seats: int = 3, **options: Any) -> Match[RemiState]:
    """Round 1 dealt and its first round of turns played: seat 0 to draw."""
    match = Match(GAME, Header("remi", tuple(f"seat{n}" for n in range(seats)), 0, options))
    assert match.play(Move(0, "deal", {"atu": "red-7"})).verdict.ok
    assert match.play(Move(0, "discard", {"tile": "blue-3"})).verdict.ok
    for seat, code in zip(range(1, seats), ["blue-4", "blue-5", "blue-6"], strict=False):
        assert match.play(Move(seat, "draw")).verdict.ok
        assert match.play(Move(seat, "discard", {"tile": code})).verdict.ok
    return match


def play(match: Match[RemiState], seat: int, kind: str, **fields: Any) -> Ruling:
    return match.play(Move(seat, kind, fields))


def verdict(match: Match[RemiState], seat: int, kind: str, **fields: Any) -> Verdict:
    return GAME.judge(match.state, Move(seat, kind, fields))


def meld(codes: list[str], **options: Any) -> Meld | tuple[str, str]:
    return read_meld(codes, 0, {"joker_ratio": False, **options})


def broken(codes: list[str], **options: Any) -> str:
    """The rule id `codes` break as a meld."""
    made = meld(codes, **options)
    assert not isinstance(made, Meld), codes
    return made[0]


def opened(seats: int = 3, **options: Any) -> Match[RemiState]:
    """Seat 0 has opened with `OPENING` and discarded; seat 1 to draw."""
    match = new_match(seats, **options)
    play(match, 0, "draw")
    assert play(match, 0, "lay", melds=OPENING).verdict.ok
    assert play(match, 0, "discard", tile="black-2").verdict.ok
    return match


def test_the_game_is_registered_with_its_tiles() -> None:
    game = get_game("remi")
    assert isinstance(game, Remi)
    assert game.deck.size == 106 and game.deck.card_mm == (20.0, 30.0)
    assert game.copies["black-13"] == 2 and game.copies["joker"] == 2


# -- melds ------------------------------------------------------------------------------------


def test_remi_run_legal_three_or_more_in_a_row_of_one_colour_either_way() -> None:
    run = meld(["red-5", "red-6", "red-7", "red-8"])
    assert isinstance(run, Meld) and (run.kind, run.colour, run.start) == ("run", "red", 5)
    backwards = meld(["blue-9", "blue-8", "blue-7"])
    assert isinstance(backwards, Meld) and backwards.start == 7


def test_remi_run_illegal_two_tiles_a_gap_or_two_colours() -> None:
    assert [broken(codes) for codes in (["red-5", "red-6"], ["red-5", "red-7", "red-8"],
                                         ["red-5", "blue-6", "red-7"])] == ["REMI-RUN"] * 3
    match = opened()
    play(match, 1, "draw")
    assert verdict(match, 1, "lay", melds=[["red-2", "red-4", "red-5"]]).rules == ("REMI-RUN",)


def test_remi_set_legal_three_or_four_colours_of_one_number() -> None:
    for codes in (["red-8", "blue-8", "black-8"], ["red-8", "blue-8", "black-8", "yellow-8"]):
        made = meld(codes)
        assert isinstance(made, Meld) and (made.kind, made.number) == ("set", 8)


def test_remi_set_illegal_a_colour_twice_or_five_tiles() -> None:
    assert broken(["red-8", "red-8", "blue-8"]) == "REMI-SET"
    assert broken(["red-8", "blue-8", "black-8", "yellow-8", "joker"]) == "REMI-SET"


def test_remi_ace_legal_low_or_high() -> None:
    low, high = meld(["red-1", "red-2", "red-3"]), meld(["red-12", "red-13", "red-1"])
    assert isinstance(low, Meld) and isinstance(high, Meld)
    assert (low.points(), high.points()) == (15, 30)


def test_remi_ace_illegal_a_run_that_wraps_round() -> None:
    assert broken(["red-13", "red-1", "red-2"]) == "REMI-ACE"


def test_remi_joly_legal_it_stands_for_any_tile_of_a_run_or_a_set() -> None:
    run = meld(["red-4", "joker", "red-6"])
    assert isinstance(run, Meld) and run.stands_for(1) == "red-5"
    four = meld(["red-4", "blue-4", "joker", "black-4"])
    assert isinstance(four, Meld) and four.stands_for(2) == "yellow-4"
    three = meld(["red-4", "joker", "black-4"])
    assert isinstance(three, Meld) and three.stands_for(1) is None


def test_remi_joly_illegal_no_tile_fills_the_gap_or_jolies_alone() -> None:
    assert broken(["red-4", "joker", "red-8"]) == "REMI-JOLY"
    assert broken(["joker", "joker", "joker"]) == "REMI-JOLY"


def test_remi_joly_ratio_legal_twice_as_many_tiles_or_the_seed_s_any_tile() -> None:
    assert isinstance(meld(["red-4", "joker", "red-6"], joker_ratio=True), Meld)
    assert isinstance(meld(["joker", "red-5", "joker"]), Meld)


def test_remi_joly_ratio_illegal_two_jolies_and_one_tile_where_the_table_counts() -> None:
    assert broken(["joker", "red-5", "joker"], joker_ratio=True) == "REMI-JOLY-RATIO"


# -- values and the opening -----------------------------------------------------------------


def test_remi_values_legal_the_tile_values_in_their_melds() -> None:
    def points(codes: list[str]) -> int:
        made = meld(codes)
        assert isinstance(made, Meld)
        return made.points()
    assert points(["blue-2", "blue-3", "blue-4"]) == 15
    assert points(["blue-9", "blue-10", "blue-11"]) == 25
    assert points(["red-1", "blue-1", "black-1"]) == 75
    assert points(["red-1", "blue-1", "joker", "black-1"]) == 100
    assert points(["red-11", "red-12", "joker", "red-1"]) == 40  # the joly is a 13


def test_remi_values_illegal_a_low_1_counts_5_so_the_opening_falls_short() -> None:
    match = new_match()
    play(match, 0, "draw")
    ruling = play(match, 0, "lay", melds=[["red-1", "red-2", "red-3"], ["blue-1", "blue-2",
                                                                         "blue-3"]])
    assert ruling.verdict.rules == ("REMI-OPEN-45",)
    assert "not 30" in ruling.verdict.message


def test_remi_open_round_legal_laying_out_once_every_seat_has_discarded() -> None:
    match = new_match()
    play(match, 0, "draw")
    assert verdict(match, 0, "lay", melds=OPENING).ok


def test_remi_open_round_illegal_laying_out_in_the_first_round() -> None:
    match = Match(GAME, Header("remi", ("a", "b", "c")))
    play(match, 0, "deal", atu="red-7")
    play(match, 0, "discard", tile="blue-3")
    play(match, 1, "draw")
    assert verdict(match, 1, "lay", melds=OPENING).rules == ("REMI-OPEN-ROUND",)


def test_remi_open_45_legal_45_points_or_50_where_the_table_says() -> None:
    match = new_match()
    play(match, 0, "draw")
    ruling = play(match, 0, "lay", melds=OPENING)
    assert ruling.verdict.ok and "opens with 45 points" in ruling.verdict.message
    fifty = new_match(opening=50)
    play(fifty, 0, "draw")
    assert verdict(fifty, 0, "lay", melds=[*OPENING, ["red-5", "blue-5", "black-5"]]).ok


def test_remi_open_45_illegal_under_the_threshold() -> None:
    match = new_match()
    play(match, 0, "draw")
    assert verdict(match, 0, "lay", melds=[OPENING[0]]).rules == ("REMI-OPEN-45",)
    fifty = new_match(opening=50)
    play(fifty, 0, "draw")
    assert verdict(fifty, 0, "lay", melds=OPENING).rules == ("REMI-OPEN-45",)


def test_remi_open_run_legal_a_run_or_a_set_of_1s_alone() -> None:
    match = new_match()
    play(match, 0, "draw")
    assert verdict(match, 0, "lay", melds=[["red-1", "blue-1", "black-1"]]).ok


def test_remi_open_run_illegal_sets_only_or_other_sets_with_the_1s() -> None:
    match = new_match()
    play(match, 0, "draw")
    sets = [["red-10", "blue-10", "black-10"], ["red-9", "blue-9", "black-9"]]
    assert verdict(match, 0, "lay", melds=sets).rules == ("REMI-OPEN-RUN",)
    ones = [["red-1", "blue-1", "black-1"], ["red-9", "blue-9", "black-9"]]
    assert verdict(match, 0, "lay", melds=ones).rules == ("REMI-OPEN-RUN",)


def test_remi_open_partial_legal_melds_kept_back_then_laid_later() -> None:
    match = opened()
    for seat in (1, 2):
        play(match, seat, "draw")
        play(match, seat, "discard", tile=f"yellow-{seat + 3}")
    play(match, 0, "draw")
    assert play(match, 0, "lay", melds=[["black-5", "yellow-5", "red-5"]]).verdict.ok


def test_remi_open_partial_illegal_what_is_kept_back_counts_against_at_the_end() -> None:
    match = opened()
    state = replace(match.state, phase="reveal", closer=1,
                    shown={0: ("red-4", "red-5", "red-6"), 1: (), 2: ()})
    assert round_scores(state)[0] == 45 - 15  # a run kept on the rack subtracts
    play(match, 1, "draw")
    assert verdict(match, 1, "lay", melds=[["red-4", "red-5", "red-6"]]).rules == (
        "REMI-OPEN-45",)  # keeping some back never lowers the opening's threshold


# -- taking a tile ---------------------------------------------------------------------------


def test_remi_draw_legal_one_tile_from_the_wall() -> None:
    match = new_match()
    before = match.state.wall
    assert play(match, 0, "draw").verdict.ok
    assert match.state.wall == before - 1 and match.state.racks[0] == 15


def test_remi_draw_illegal_two_tiles_or_a_discard_without_one() -> None:
    match = new_match()
    assert verdict(match, 0, "discard", tile="red-3").rules == ("REMI-DRAW",)
    play(match, 0, "draw")
    assert verdict(match, 0, "draw").rules == ("REMI-DRAW",)
    assert verdict(match, 0, "take", at=2).rules == ("REMI-DRAW",)


def test_remi_rupere_last_legal_the_last_tile_used_in_the_opening() -> None:
    match = new_match()
    ruling = play(match, 0, "take", at=2, tile="blue-5")
    assert ruling.verdict.ok and ruling.verdict.message == ": use it in a meld this turn"
    play(match, 0, "lay", melds=[["blue-5", "blue-6", "blue-7"], ["red-10", "red-11", "red-12"]])
    end = play(match, 0, "discard", tile="red-2")
    assert end.verdict.ok and end.deferred == ()


def test_remi_rupere_last_illegal_in_the_first_round_or_not_used_this_turn() -> None:
    first = Match(GAME, Header("remi", ("a", "b", "c")))
    play(first, 0, "deal", atu="red-7")
    play(first, 0, "discard", tile="blue-3")
    play(first, 1, "draw")
    play(first, 1, "discard", tile="blue-4")
    assert verdict(first, 2, "take", at=1).rules == ("REMI-RUPERE-LAST",)
    match = new_match()
    take = play(match, 0, "take", at=2)
    end = play(match, 0, "discard", tile="red-2")
    [proof] = end.deferred
    assert proof.verdict.rules == ("REMI-RUPERE-LAST",) and proof.verdict.concerns == take.index
    unopened = new_match()
    play(unopened, 0, "take", at=2)
    assert verdict(unopened, 0, "lay", melds=[["red-10", "red-11", "red-12"], [
        "yellow-8", "blue-8", "black-8"]]).rules == ("REMI-RUPERE-LAST",)


def test_remi_pe_tabla_legal_announced_the_tile_may_stay_on_the_rack() -> None:
    match = new_match()
    play(match, 0, "take", at=2)
    assert [offer.kind for offer in GAME.page_moves(match.state)] == ["pe-tabla"]
    assert play(match, 0, "pe-tabla").verdict.ok
    assert play(match, 0, "discard", tile="red-2").deferred == ()


def test_remi_pe_tabla_illegal_laying_out_piecemeal_after_announcing() -> None:
    match = new_match()
    play(match, 0, "take", at=2)
    announced = play(match, 0, "pe-tabla")
    play(match, 0, "discard", tile="red-2")
    for seat in (1, 2):
        play(match, seat, "draw")
        play(match, seat, "discard", tile=f"yellow-{seat + 3}")
    play(match, 0, "draw")
    lay = play(match, 0, "lay", melds=OPENING)
    [proof] = play(match, 0, "discard", tile="red-3").deferred
    assert proof.verdict.rules == ("REMI-PE-TABLA",) and proof.verdict.concerns == lay.index
    assert f"announced pe tablă at move {announced.index + 1} yet laid out at move " \
        f"{lay.index + 1}" in proof.verdict.message  # moves said from 1
    flag = new_match(pe_tabla="flag")
    play(flag, 0, "take", at=2)
    play(flag, 0, "pe-tabla")
    play(flag, 0, "discard", tile="red-2")
    for seat in (1, 2):
        play(flag, seat, "draw")
        play(flag, seat, "discard", tile=f"yellow-{seat + 3}")
    play(flag, 0, "draw")
    play(flag, 0, "lay", melds=OPENING)
    assert play(flag, 0, "discard", tile="red-3").deferred == ()


def test_remi_rupere_any_legal_opened_with_four_tiles_the_later_tiles_come_too() -> None:
    match = opened()
    ruling = play(match, 1, "take", at=1, tile="blue-4")
    assert ruling.verdict.rules == ("REMI-RUPERE-ANY",)  # seat 1 has not laid out
    match = opened()
    play(match, 1, "draw")
    play(match, 1, "discard", tile="yellow-4")
    play(match, 2, "draw")
    play(match, 2, "discard", tile="yellow-5")
    take = play(match, 0, "take", at=1)
    assert take.verdict.ok and take.verdict.message.startswith("and the 4 tiles after it")
    assert match.state.racks[0] == 8 + 5 and [c for _, c in match.state.row] == ["blue-3"]
    play(match, 0, "lay", melds=[["blue-4", "blue-5", "blue-6"]])
    assert play(match, 0, "discard", tile="yellow-5").deferred == ()


def test_remi_rupere_any_illegal_a_rack_counted_under_4_proven_when_shown() -> None:
    match = opened()
    play(match, 1, "draw")
    play(match, 1, "discard", tile="yellow-4")
    play(match, 2, "draw")
    play(match, 2, "discard", tile="yellow-5")
    match._states[-1] = replace(match.state, racks=(3, 14, 14))  # noqa: SLF001
    take = play(match, 0, "take", at=4)  # yellow-4 and yellow-5
    assert take.verdict.ok and "proven when it is shown" in take.verdict.message
    play(match, 0, "lay", melds=[["yellow-3", "yellow-4", "yellow-5"]])
    assert play(match, 0, "discard", tile="red-3").deferred == ()
    assert match.state.racks[0] == 1
    ended = replace(match.state, phase="reveal", closer=1)
    miscounted = Match(GAME, match.header)
    miscounted._states[-1] = ended  # noqa: SLF001
    match._states[-1] = ended  # noqa: SLF001
    [proof] = play(match, 0, "reveal", tiles=["red-8"]).deferred
    assert proof.verdict.rules == ("REMI-RUPERE-ANY",) and proof.verdict.concerns == take.index
    assert "held 3 tiles, under 4" in proof.verdict.message
    more = play(miscounted, 0, "reveal", tiles=["red-8", "red-9"])
    assert more.verdict.severity == "warning" and more.deferred == ()


def test_remi_first_discard_dead_legal_the_next_tile_may_be_taken() -> None:
    match = opened()
    play(match, 1, "draw")
    play(match, 1, "discard", tile="yellow-4")
    play(match, 2, "draw")
    play(match, 2, "discard", tile="yellow-5")
    assert verdict(match, 0, "take", at=1).ok


def test_remi_first_discard_dead_illegal_the_reversed_first_tile() -> None:
    match = opened()
    assert verdict(match, 1, "take", at=0).rules == ("REMI-FIRST-DISCARD-DEAD",)


# -- laying off and the jolies ----------------------------------------------------------------


def test_remi_layoff_legal_on_anyone_s_meld_after_opening() -> None:
    match = opened()
    play(match, 1, "draw")
    play(match, 1, "lay", melds=[["yellow-3", "yellow-4", "yellow-5"],
                                 ["black-11", "black-12", "black-13"]])
    assert play(match, 1, "add", meld=1, tiles=["red-9", "red-13"]).verdict.ok
    assert match.state.melds[0].codes == ["red-9", "red-10", "red-11", "red-12", "red-13"]


def test_remi_layoff_illegal_before_opening_or_a_tile_that_does_not_fit() -> None:
    match = opened()
    play(match, 1, "draw")
    assert verdict(match, 1, "add", meld=1, tiles=["red-13"]).rules == ("REMI-LAYOFF",)
    play(match, 1, "discard", tile="yellow-4")
    play(match, 2, "draw")
    play(match, 2, "discard", tile="yellow-5")
    play(match, 0, "draw")
    assert verdict(match, 0, "add", meld=1, tiles=["red-5"]).rules == ("REMI-LAYOFF",)
    assert verdict(match, 0, "add", meld=7, tiles=["red-5"]).rules == ("REMI-LAYOFF",)


def test_remi_joly_layoff_own_legal_a_joly_on_one_s_own_meld() -> None:
    match = opened()
    for seat in (1, 2):
        play(match, seat, "draw")
        play(match, seat, "discard", tile=f"yellow-{seat + 3}")
    play(match, 0, "draw")
    assert play(match, 0, "add", meld=1, tiles=["joker"]).verdict.ok
    assert match.state.melds[0].codes == ["red-10", "red-11", "red-12", "joker"]


def test_remi_joly_layoff_own_illegal_a_joly_on_another_seat_s_meld() -> None:
    match = opened()
    play(match, 1, "draw")
    play(match, 1, "lay", melds=[["yellow-3", "yellow-4", "yellow-5"],
                                 ["black-11", "black-12", "black-13"]])
    assert verdict(match, 1, "add", meld=1, tiles=["joker"]).rules == ("REMI-JOLY-LAYOFF-OWN",)


def swap_ready() -> Match[RemiState]:
    """Seat 0's run red-4, joly, red-6 on the table; seat 1 has opened and is to play."""
    match = new_match()
    play(match, 0, "draw")
    play(match, 0, "lay", melds=[["red-4", "joker", "red-6"], ["red-10", "red-11", "red-12"]])
    play(match, 0, "discard", tile="black-2")
    return match


def test_remi_joly_swap_legal_freed_by_its_tile_and_laid_again_the_same_turn() -> None:
    match = swap_ready()
    play(match, 1, "draw")
    assert play(match, 1, "swap", meld=1, tiles=["red-5"]).verdict.ok
    assert match.state.melds[0].codes == ["red-4", "red-5", "red-6"]
    play(match, 1, "lay", melds=[["yellow-7", "joker", "yellow-9"], ["blue-10", "blue-11",
                                                                      "blue-12"]])
    assert match.state.melds[2].slots[1].freed
    assert play(match, 1, "discard", tile="black-3").deferred == ()


def test_remi_joly_swap_illegal_the_wrong_tile_a_second_freeing_or_left_unused() -> None:
    match = swap_ready()
    play(match, 1, "draw")
    assert verdict(match, 1, "swap", meld=1, tiles=["red-7"]).rules == ("REMI-JOLY-SWAP",)
    assert verdict(match, 1, "swap", meld=2, tiles=["red-7"]).rules == ("REMI-JOLY-SWAP",)
    swap = play(match, 1, "swap", meld=1, tiles=["red-5"])
    assert verdict(match, 1, "discard", tile="joker").rules == ("REMI-JOLY-SWAP",)
    [proof] = play(match, 1, "discard", tile="black-3").deferred
    assert proof.verdict.rules == ("REMI-JOLY-SWAP",) and proof.verdict.concerns == swap.index
    again = swap_ready()
    play(again, 1, "draw")
    play(again, 1, "swap", meld=1, tiles=["red-5"])
    play(again, 1, "lay", melds=[["yellow-7", "joker", "yellow-9"], ["blue-10", "blue-11",
                                                                      "blue-12"]])
    play(again, 1, "discard", tile="black-3")
    play(again, 2, "draw")
    assert verdict(again, 2, "swap", meld=3, tiles=["yellow-8"]).rules == ("REMI-JOLY-SWAP",)


def test_remi_joly_set_legal_both_missing_colours_or_the_fourth_tile() -> None:
    match = opened()  # meld 2: blue-9, joly, black-9
    play(match, 1, "draw")
    assert play(match, 1, "swap", meld=2, tiles=["red-9", "yellow-9"]).verdict.ok
    assert sorted(match.state.melds[1].codes) == ["black-9", "blue-9", "red-9", "yellow-9"]
    locked = opened()
    play(locked, 1, "draw")
    play(locked, 1, "discard", tile="yellow-4")
    play(locked, 2, "draw")
    play(locked, 2, "discard", tile="yellow-5")
    play(locked, 0, "draw")
    assert play(locked, 0, "add", meld=2, tiles=["red-9"]).verdict.ok  # the joly locked
    play(locked, 0, "discard", tile="red-3")
    play(locked, 1, "draw")
    assert verdict(locked, 1, "swap", meld=2, tiles=["yellow-9"]).ok  # the 4th frees it


def test_remi_joly_set_illegal_one_tile_for_a_joly_in_a_set_of_three() -> None:
    match = opened()
    play(match, 1, "draw")
    assert verdict(match, 1, "swap", meld=2, tiles=["red-9"]).rules == ("REMI-JOLY-SET",)


# -- the discard, the closing, the round ----------------------------------------------------------


def test_remi_discard_legal_one_tile_ends_the_turn() -> None:
    match = new_match()
    play(match, 0, "draw")
    ruling = play(match, 0, "discard", tile="red-2")
    assert ruling.verdict.ok and GAME.to_play(match.state) == 1


def test_remi_discard_illegal_none_or_two() -> None:
    match = new_match()
    play(match, 0, "draw")
    assert verdict(match, 1, "draw").rules == ("REMI-DISCARD",)
    play(match, 0, "discard", tile="red-2")
    assert verdict(match, 0, "discard", tile="red-3").rules == ("REMI-DISCARD",)
    assert verdict(match, 2, "draw").rules == ("TURN-ORDER",)


def closing(seats: int = 2, **options: Any) -> Match[RemiState]:
    """Seat 0 to play with 4 tiles on its rack (counted), having opened."""
    match = opened(seats, **options)
    play(match, 1, "draw")
    play(match, 1, "discard", tile="yellow-4")
    match._states[-1] = replace(match.state, racks=(3, 15))  # noqa: SLF001
    play(match, 0, "draw")
    return match


def test_remi_close_legal_the_last_tile_discarded_ends_the_round() -> None:
    match = closing()
    play(match, 0, "lay", melds=[["black-5", "black-6", "black-7"]])
    ruling = play(match, 0, "discard", tile="joker")
    assert ruling.verdict.ok and ruling.verdict.message.startswith("and goes out")
    assert match.state.phase == "reveal"
    assert play(match, 0, "reveal", tiles=[]).verdict.ok
    last = play(match, 1, "reveal", tiles=["red-1", "joker", "blue-7"])
    assert last.deferred == ()
    # seat 0: 45 + 15 laid, bonus 50 doubled for the joly; seat 1: -25 - 50 - 5
    assert match.state.last_round == (60 + 100, -80)
    assert GAME.scores(match.state) == {0: 160, 1: -80}
    assert match.state.phase == "deal" and match.state.starter == 1


def test_remi_close_illegal_no_tile_left_to_discard_or_a_rack_shown_with_tiles() -> None:
    match = closing()
    assert verdict(match, 0, "lay", melds=[["black-5", "black-6", "black-7", "black-8"]]
                   ).rules == ("REMI-CLOSE",)
    free = closing(close_discard=False)
    assert play(free, 0, "lay", melds=[["black-5", "black-6", "black-7", "black-8"]]
                ).verdict.ok
    assert free.state.phase == "reveal" and free.state.closer == 0
    play(match, 0, "lay", melds=[["black-5", "black-6", "black-7"]])
    out = play(match, 0, "discard", tile="red-2")
    assert verdict(match, 0, "draw").rules == ("REMI-CLOSE",)
    shown = play(match, 0, "reveal", tiles=["red-3"])
    assert shown.verdict.severity == "warning"
    [proof] = shown.deferred
    assert proof.verdict.rules == ("REMI-CLOSE",) and proof.verdict.concerns == out.index


def test_remi_atu_legal_the_dealt_twin_of_the_atu_shown_scores_its_bonus() -> None:
    match = Match(GAME, Header("remi", ("a", "b")))
    play(match, 0, "deal", atu="red-7")
    assert [o.kind for o in GAME.page_moves(match.state)] == ["atu"]
    assert play(match, 1, "atu").verdict.ok
    state = replace(match.state, phase="reveal", opened=(True, True), shown={0: (), 1: ()})
    assert round_scores(state) == (0, 50)


def test_remi_atu_illegal_after_one_s_first_draw_or_claimed_twice() -> None:
    match = new_match()
    assert verdict(match, 1, "atu").rules == ("REMI-ATU",)
    fresh = Match(GAME, Header("remi", ("a", "b")))
    play(fresh, 0, "deal", atu="red-7")
    play(fresh, 0, "atu")
    assert verdict(fresh, 1, "atu").rules == ("REMI-ATU",)


def test_remi_game_end_legal_the_target_reached_ends_the_game() -> None:
    match = closing(target=500)
    match._states[-1] = replace(match.state, totals=(400, 0))  # noqa: SLF001
    play(match, 0, "lay", melds=[["black-5", "black-6", "black-7"]])
    play(match, 0, "discard", tile="red-2")
    play(match, 0, "reveal", tiles=[])
    play(match, 1, "reveal", tiles=["red-4"])
    assert GAME.is_over(match.state) and GAME.winners(match.state) == [0]
    rounds = closing(game_end="rounds")
    play(rounds, 0, "discard", tile="red-2")
    assert rounds.state.phase == "play"


def test_remi_game_end_illegal_a_move_after_the_end() -> None:
    match = closing(game_end="rounds")
    match._states[-1] = replace(match.state, round=2)  # noqa: SLF001
    play(match, 0, "lay", melds=[["black-5", "black-6", "black-7"]])
    play(match, 0, "discard", tile="red-2")
    play(match, 0, "reveal", tiles=[])
    play(match, 1, "reveal", tiles=[])
    assert GAME.is_over(match.state)
    assert verdict(match, 1, "deal", atu="red-3").rules == ("REMI-GAME-END",)


def test_the_wall_running_out_ends_the_round_scored_or_not() -> None:
    for option, expected in (("score", (45, 0)), ("nobody", (0, 0))):
        match = opened(2, wall_out=option)
        match._states[-1] = replace(match.state, wall=1)  # noqa: SLF001
        play(match, 1, "draw")
        ruling = play(match, 1, "discard", tile="yellow-4")
        assert "the wall is empty" in ruling.verdict.message
        play(match, 0, "reveal", tiles=[])
        play(match, 1, "reveal", tiles=[])
        assert match.state.last_round == expected


def test_a_never_opened_rack_costs_its_value_or_a_flat_100() -> None:
    match = opened(2)
    state = replace(match.state, phase="reveal", closer=0, shown={0: (), 1: ("red-13",)})
    assert round_scores(state)[1] == -10
    assert round_scores(replace(state, options={**state.options, "unopened": "flat"}))[1] == -100


def test_a_tile_seen_beyond_its_copies_is_a_misread_to_confirm() -> None:
    match = new_match()
    play(match, 0, "draw")
    said = verdict(match, 0, "discard", tile="blue-4")
    assert said.ok  # one blue-4 on the row: the second is fine
    play(match, 0, "discard", tile="blue-4")
    play(match, 1, "draw")
    assert verdict(match, 1, "discard", tile="blue-4").severity == "warning"


def test_every_rule_id_has_a_legal_and_an_illegal_test() -> None:
    names = [name for name in globals() if name.startswith("test_remi_")]
    for rule in RULE_IDS:
        slug = rule.lower().replace("-", "_")
        assert any(n.startswith(f"test_{slug}_legal") for n in names), rule
        assert any(n.startswith(f"test_{slug}_illegal") for n in names), rule


# -- the buttons ------------------------------------------------------------------------------


def test_a_press_draws_from_the_wall_a_hold_announces_and_a_double_takes_back() -> None:
    match = new_match()
    table = GAME.interpreter(match.header)
    assert table.on_press(match.state, Press(0, "press"), None) == [Play(Move(0, "draw"))]
    assert table.on_press(match.state, Press(1, "press"), None) == []
    take = play(match, 0, "take", at=2)
    assert table.on_press(match.state, Press(0, "hold"), take) == [Play(Move(0, "pe-tabla"))]
    [back] = table.on_press(match.state, Press(0, "double"), take)
    assert isinstance(back, TakeBack)


# -- whole games ------------------------------------------------------------------------------


def find_opening(rack: list[str], options: dict[str, Any]) -> list[list[str]] | None:
    """Runs of three in a colour, then sets of three, from a real rack: an opening of 45
    with a run, if the rack has one."""
    melds: list[list[str]] = []
    left = list(rack)
    for colour in ("red", "yellow", "blue", "black"):
        for start in range(1, 12):
            codes = [f"{colour}-{n}" for n in range(start, start + 3)]
            if all(code in left for code in codes):
                melds.append(codes)
                for code in codes:
                    left.remove(code)
    if not melds:
        return None
    for number in range(2, 14):
        codes = [f"{c}-{number}" for c in ("red", "yellow", "blue", "black") if f"{c}-{number}"
                 in left][:3]
        if len(codes) == 3:
            melds.append(codes)
            for code in codes:
                left.remove(code)
    points = 0
    for codes in melds:
        made = read_meld(codes, 0, options)
        assert isinstance(made, Meld)
        points += made.points()
    return melds if points >= options["opening"] and len(left) >= 1 else None


def random_game(seed: int, seats: int, **options: Any) -> Match[RemiState]:
    """A game of fair players: draws, openings, lay-offs, discards, reveals."""
    chance = random.Random(seed)
    names = tuple(f"seat{n}" for n in range(seats))
    match = Match(GAME, Header("remi", names, 0, {"game_end": "rounds", **options}))
    racks: dict[int, list[str]] = {}
    wall: list[str] = []
    while not GAME.is_over(match.state):
        state = match.state
        seat = GAME.to_play(state)
        assert seat is not None
        if state.phase == "deal":
            wall = [code for code, copies in GAME.copies.items() for _ in range(copies)]
            chance.shuffle(wall)
            racks = {s: [wall.pop() for _ in range(14 + (s == seat))] for s in range(seats)}
            match.play(Move(seat, "deal", {"atu": next(c for c in wall if c != "joker")}))
            continue
        if state.phase == "reveal":
            match.play(Move(seat, "reveal", {"tiles": racks[seat]}))
            continue
        rack = racks[seat]
        if not state.turn.drew:
            rack.append(wall.pop())
            match.play(Move(seat, "draw"))
            continue
        if state.first_round_over and not state.opened[seat]:
            found = find_opening(rack, dict(match.header.options))
            if found is not None:
                for codes in found:
                    for code in codes:
                        rack.remove(code)
                match.play(Move(seat, "lay", {"melds": found}))
        if state.opened[seat] or match.state.opened[seat]:
            for code in [c for c in rack if c != "joker"]:
                for number, on in enumerate(match.state.melds, 1):
                    if len(rack) > 1 and extended(on, [code], seat,
                                                  match.header.options) is not None:
                        rack.remove(code)
                        match.play(Move(seat, "add", {"meld": number, "tiles": [code]}))
                        break
        tile = chance.choice(rack)
        rack.remove(tile)
        match.play(Move(seat, "discard", {"tile": tile}))
    return match


@pytest.mark.parametrize("seed", range(8))
def test_a_fair_game_is_never_flagged(seed: int) -> None:
    choices: list[dict[str, Any]] = [{}, {"opening": 50},
                                     {"joker_ratio": True, "close_discard": False},
                                     {"unopened": "flat", "wall_out": "nobody"}]
    options = choices[seed % 4]
    match = random_game(seed, 2 + seed % 3, **options)
    flagged = [r.index for r in match.rulings
               if not r.verdict.ok or r.deferred or r.verdict.severity == "warning"]
    assert flagged == []
    assert GAME.is_over(match.state)
    assert {"deal", "draw", "lay", "discard", "reveal"} <= {r.move.kind for r in match.rulings}


def test_fair_players_lay_off_too() -> None:
    kinds = {r.move.kind for seed in range(3) for r in random_game(seed, 4).rulings}
    assert "add" in kinds


# -- the example log and the notation ---------------------------------------------------------


def test_the_example_log_checks_with_its_proof_at_the_turn_s_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["referee", "check", "--game", "remi", str(FIXTURES / "round.jsonl")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    flagged = [line for line in lines if "ok" in line and not line["ok"]]
    assert [(line["index"], line["rules"], line.get("concerns")) for line in flagged] == [
        (4, ["REMI-FIRST-DISCARD-DEAD"], None), (13, ["REMI-RUPERE-LAST"], 11),
    ]
    assert code == 0
    assert lines[-1] == {"final": False, "scores": {"0": -60, "1": 190}, "winners": []}


def test_the_example_log_reads_entirely_in_every_language() -> None:
    lines = (FIXTURES / "round.jsonl").read_text(encoding="utf-8").splitlines()
    match = replay(read_log(lines))
    for ruling in match.rulings:
        for line in (ruling, *ruling.deferred):
            for language in LANGUAGES[1:]:
                assert untranslated(line.verdict.message, catalogue(language)) == [], line


def test_the_page_offers_read_in_every_language() -> None:
    match = new_match()
    play(match, 0, "take", at=2)
    fresh = Match(GAME, Header("remi", ("a", "b")))
    play(fresh, 0, "deal", atu="red-7")
    offers = [*GAME.page_moves(match.state), *GAME.page_moves(fresh.state)]
    assert {offer.kind for offer in offers} == {"pe-tabla", "atu"}
    for offer in offers:
        for language in LANGUAGES[1:]:
            assert untranslated(offer.title, catalogue(language)) == []


def test_the_notation_doc_shows_every_kind_of_remi_move() -> None:
    doc = NOTATION_DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## Remi pe tablă") : doc.index("## UNO")]
    for kind in ("deal", "draw", "take", "pe-tabla", "lay", "add", "swap", "discard", "atu",
                 "reveal"):
        assert f'"move": "{kind}"' in section, kind
