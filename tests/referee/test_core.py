"""The referee core: verdicts, options, header checks, the match as a fold, rulings."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    TURN_RULE,
    Header,
    Match,
    Move,
    Option,
    RefereeError,
    Ruling,
    Verdict,
)
from referee.games import get_game
from referee.games.deserto import Deserto

# -- Verdict ------------------------------------------------------------------------


def test_legal_verdict() -> None:
    verdict = Verdict.legal("oasis on nw")
    assert verdict == Verdict(ok=True, rules=(), message="oasis on nw", severity="ok")


def test_unchecked_verdict_is_ok_with_a_warning() -> None:
    verdict = Verdict.unchecked("card not recognised")
    assert verdict.ok is True
    assert verdict.severity == "warning"
    assert verdict.rules == ()
    assert verdict.message == "card not recognised"


def test_illegal_verdict_names_every_breached_rule_in_order() -> None:
    verdict = Verdict.illegal([("DES-FORM", "diagonal"), ("TURN-ORDER", "not your turn")])
    assert verdict.ok is False
    assert verdict.severity == "illegal"
    assert verdict.rules == ("DES-FORM", "TURN-ORDER")
    assert verdict.message == "diagonal; not your turn"
    assert verdict.concerns is None


# -- Option -------------------------------------------------------------------------

FLAG = Option("flag", True, (True, False), "a yes/no option")
WAY = Option("way", "left", ("left", "right"), "a choice")


@pytest.mark.parametrize(
    ("option", "value"),
    [(FLAG, True), (FLAG, False), (WAY, "left"), (WAY, "right")],
    ids=["flag-true", "flag-false", "way-left", "way-right"],
)
def test_option_accepts_its_choices(option: Option, value: Any) -> None:
    assert option.check(value) is None, "no RefereeError"


@pytest.mark.parametrize(
    ("option", "value"),
    [(FLAG, 1), (FLAG, 0), (FLAG, "true"), (WAY, "up"), (WAY, None)],
    ids=["flag-1-is-not-bool", "flag-0-is-not-bool", "flag-string", "way-unknown", "way-null"],
)
def test_option_refuses_other_values_and_names_the_choices(option: Option, value: Any) -> None:
    with pytest.raises(RefereeError) as caught:
        option.check(value)
    message = str(caught.value)
    assert repr(option.name) in message
    assert all(repr(choice) in message for choice in option.choices)
    assert repr(value) in message


# -- Game.check_header ---------------------------------------------------------------

DESERTO_DEFAULTS = {
    "direction": "clockwise",
    "placed_card_stays": True,
    "stuck_draws_back": True,
    "square_at_end": "nobody",
}


@pytest.mark.parametrize("count", [2, 3, 4])
def test_check_header_accepts_2_to_4_seats(count: int) -> None:
    seats = tuple(f"p{n}" for n in range(count))
    assert Deserto().check_header(Header("deserto", seats)).seats == seats


@pytest.mark.parametrize("count", [0, 1, 5])
def test_check_header_refuses_other_seat_counts(count: int) -> None:
    seats = tuple(f"p{n}" for n in range(count))
    with pytest.raises(RefereeError, match=f"Deserto is for 2 to 4 players, not {count}"):
        Deserto().check_header(Header("deserto", seats))


@pytest.mark.parametrize("first", [-1, 2])
def test_check_header_refuses_a_first_seat_outside_the_table(first: int) -> None:
    with pytest.raises(RefereeError, match=f"first seat {first} is not one of the seats"):
        Deserto().check_header(Header("deserto", ("Ana", "Bo"), first=first))


def test_check_header_refuses_an_unknown_option_and_lists_the_known_ones() -> None:
    header = Header("deserto", ("Ana", "Bo"), options={"starting_card": True})
    with pytest.raises(RefereeError) as caught:
        Deserto().check_header(header)
    message = str(caught.value)
    assert "unknown option 'starting_card' for deserto" in message
    assert all(name in message for name in DESERTO_DEFAULTS)


def test_check_header_refuses_a_bad_option_value() -> None:
    header = Header("deserto", ("Ana", "Bo"), options={"direction": "left"})
    with pytest.raises(RefereeError, match="option 'direction' must be one of"):
        Deserto().check_header(header)


def test_check_header_fills_in_the_defaults() -> None:
    checked = Deserto().check_header(Header("deserto", ("Ana", "Bo")))
    assert dict(checked.options) == DESERTO_DEFAULTS


def test_check_header_keeps_given_options_and_defaults_the_rest() -> None:
    header = Header(
        "deserto", ("Ana", "Bo", "Cy"), first=2, options={"square_at_end": "last_capturer"}
    )
    checked = Deserto().check_header(header)
    assert checked.first == 2
    assert checked.options == {**DESERTO_DEFAULTS, "square_at_end": "last_capturer"}
    assert header.options == {"square_at_end": "last_capturer"}, "the input is not changed"


def test_get_game_names_the_known_games() -> None:
    assert get_game("deserto").name == "deserto"
    with pytest.raises(RefereeError, match="unknown game 'chess'; tableref knows: deserto"):
        get_game("chess")


# -- Match ----------------------------------------------------------------------------


def place(seat: int, cell: str, card: str | None) -> Move:
    return Move(seat, "place", {"cell": cell, "card": card})


@pytest.fixture
def match() -> Match[Any]:
    return Match(Deserto(), Header("deserto", ("Ana", "Bo")))


def test_match_fills_in_the_header(match: Match[Any]) -> None:
    assert match.header.options == DESERTO_DEFAULTS
    assert match.moves == [] and match.rulings == []
    assert match.to_play() == 0


def test_match_refuses_a_bad_header() -> None:
    with pytest.raises(RefereeError):
        Match(Deserto(), Header("deserto", ("Solo",)))


def test_play_judges_logs_and_folds(match: Match[Any]) -> None:
    ruling = match.play(place(0, "nw", "oasis"))
    assert ruling.index == 0 and ruling.verdict.ok
    assert match.state.stacks["nw"] == ("oasis",)
    assert match.to_play() == 1
    ruling = match.play(place(1, "ne", "vizier"))
    assert ruling.index == 1
    assert match.moves == [place(0, "nw", "oasis"), place(1, "ne", "vizier")]
    assert match.to_play() == 0


def test_the_state_is_the_fold_of_the_moves(match: Match[Any]) -> None:
    game = match.game
    moves = [place(0, "nw", "treasure"), place(1, "ne", "oasis"), place(0, "sw", "brigand")]
    for move in moves:
        match.play(move)
    state = game.setup(match.header)
    for move in moves:
        state = game.apply(state, move)
    assert match.state == state


def test_undo_drops_the_last_move_and_restores_the_state(match: Match[Any]) -> None:
    match.play(place(0, "nw", "oasis"))
    before = match.state
    dropped = match.play(place(1, "ne", "vizier"))
    assert match.undo() == dropped
    assert match.state == before
    assert match.moves == [place(0, "nw", "oasis")]
    assert match.to_play() == 1
    again = match.play(place(1, "ne", "treasure"))
    assert again.index == 1


def test_undo_of_nothing_raises(match: Match[Any]) -> None:
    with pytest.raises(RefereeError, match="there is no move to undo"):
        match.undo()
    match.play(place(0, "nw", "oasis"))
    match.undo()
    with pytest.raises(RefereeError, match="there is no move to undo"):
        match.undo()


def test_an_illegal_move_stays_in_the_log_and_play_goes_on(match: Match[Any]) -> None:
    match.play(place(0, "nw", "vizier"))
    flagged = match.play(place(1, "ne", "brigand"))
    assert not flagged.verdict.ok
    assert flagged.verdict.rules == ("DES-NO-BRIGAND-BY-VIZIER",)
    assert match.state.stacks["ne"] == ("brigand",), "the table accepted it: it is folded in"
    assert match.to_play() == 0
    after = match.play(place(0, "sw", "oasis"))
    assert after.verdict.ok
    assert [ruling.verdict.ok for ruling in match.rulings] == [True, False, True]


def test_a_move_out_of_turn_is_flagged_as_turn_order(match: Match[Any]) -> None:
    ruling = match.play(place(1, "nw", "oasis"))
    assert ruling.verdict.rules == (TURN_RULE,)
    assert match.to_play() == 0, "play carries on after the seat that moved"


def test_result_while_playing(match: Match[Any]) -> None:
    match.play(place(0, "nw", "oasis"))
    assert match.result() == {"final": False, "scores": {"0": 0, "1": 0}, "winners": []}


# -- Ruling.to_json --------------------------------------------------------------------


def test_ruling_json_for_a_legal_move() -> None:
    ruling = Ruling(3, place(1, "ne", "oasis"), Verdict.legal("oasis on ne"))
    assert ruling.to_json() == {
        "index": 3,
        "seat": 1,
        "ok": True,
        "rules": [],
        "message": "oasis on ne",
    }


def test_ruling_json_for_an_illegal_move_has_no_severity() -> None:
    verdict = Verdict.illegal([("DES-FORM", "the card lies outside the 2x2 square")])
    ruling = Ruling(0, place(0, "off", "oasis"), verdict)
    assert ruling.to_json() == {
        "index": 0,
        "seat": 0,
        "ok": False,
        "rules": ["DES-FORM"],
        "message": "the card lies outside the 2x2 square",
    }


def test_ruling_json_adds_severity_only_for_a_warning() -> None:
    ruling = Ruling(5, place(0, "nw", None), Verdict.unchecked("card not recognised"))
    assert ruling.to_json() == {
        "index": 5,
        "seat": 0,
        "ok": True,
        "rules": [],
        "message": "card not recognised",
        "severity": "warning",
    }


def test_ruling_json_names_the_move_a_deferred_verdict_concerns() -> None:
    verdict = Verdict(
        ok=False, rules=("X-RULE",), message="proven now", severity="illegal", concerns=2
    )
    assert Ruling(7, Move(0, "show"), verdict).to_json()["concerns"] == 2


def test_move_json_writes_back_its_fields() -> None:
    assert place(1, "se", None).to_json() == {
        "seat": 1,
        "move": "place",
        "cell": "se",
        "card": None,
    }
    assert Move(0, "stuck").to_json() == {"seat": 0, "move": "stuck"}
    assert place(0, "nw", "oasis").get("cell") == "nw"
    assert Move(0, "stuck").get("cell", "none") == "none"


# -- deferred verdicts -----------------------------------------------------------------


class ProvingDeserto(Deserto):
    """Deserto with a made-up hidden-card proof: a stuck move proves move 0 illegal."""

    def deferred(self, before: Any, move: Move, after: Any) -> list[Verdict]:
        if move.kind != "stuck":
            return []
        return [Verdict(False, ("X-HIDDEN",), "proven by the stuck move", "illegal", concerns=0)]


def test_a_game_without_hidden_cards_has_no_deferred_verdicts(match: Match[Any]) -> None:
    ruling = match.play(place(0, "nw", "oasis"))
    assert ruling.deferred == ()
    assert match.transcript() == [ruling.to_json()]


def test_deferred_verdicts_follow_the_move_that_proved_them_with_the_offender_seat() -> None:
    match = Match(ProvingDeserto(), Header("deserto", ("Ana", "Bo")))
    first = match.play(place(0, "nw", "oasis"))
    match.play(place(1, "ne", "treasure"))
    proving = match.play(Move(0, "stuck"))
    [proof] = proving.deferred
    assert proof.index == 2 and proof.move == first.move
    lines = match.transcript()
    assert lines[2] == proving.to_json()
    assert lines[3] == {
        "index": 2,
        "seat": 0,
        "ok": False,
        "rules": ["X-HIDDEN"],
        "message": "proven by the stuck move",
        "concerns": 0,
    }
    match.undo()
    assert len(match.transcript()) == 2, "undo drops the move and what it proved"


def test_a_deferred_verdict_must_point_back_at_an_earlier_move() -> None:
    class Forward(ProvingDeserto):
        def deferred(self, before: Any, move: Move, after: Any) -> list[Verdict]:
            return [Verdict(False, ("X",), "", "illegal", concerns=5)]

    match = Match(Forward(), Header("deserto", ("Ana", "Bo")))
    with pytest.raises(ValueError, match="earlier move"):
        match.play(place(0, "nw", "oasis"))
