"""Professor Tempus on the page: the round-end count is offered to each seat that has not
counted, from the round end until play goes on (and for good once the game is over), and
a count entered there is judged against the log like a written one.

The match is the documented opening (tests/fixtures/referee/tempus/opening.jsonl): at the
end of round 1 Ana (seat 0) keeps 1 card and Bogdan (seat 1) 9.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.core import Match, Move, PageMove, Verdict
from referee.games.tempus import Tempus, TempusState
from referee.notation import read_log
from referee.text import Text, catalogue, in_every_language
from referee.text import translate as render

GAME = Tempus()
OPENING = Path(__file__).parents[2] / "fixtures" / "referee" / "tempus" / "opening.jsonl"
#: Moves of the opening up to the one that ends round 1.
ROUND_1 = 10
WON_IN_ROUND_1 = {0: 1, 1: 9}


def opening(moves: int) -> Match[TempusState]:
    """The opening's first `moves` moves."""
    log = read_log(OPENING.read_text(encoding="utf-8").splitlines())
    match = Match(GAME, log.header)
    for _, move in log.moves[:moves]:
        match.play(move)
    return match


def the_count(state: TempusState) -> PageMove:
    [offered] = GAME.page_moves(state)
    return offered


def enter(match: Match[TempusState], seat: int, cards: int) -> Verdict:
    """What the page does: the offered move with the admin's answer, parsed and played."""
    offered = the_count(match.state)
    assert seat in offered.seats
    move = GAME.parse_move(seat, offered.kind, {**offered.fixed, "cards": cards})
    return match.play(move).verdict


# -- when the count is offered ------------------------------------------------------------


def test_nothing_is_offered_before_a_round_ends() -> None:
    assert GAME.page_moves(opening(0).state) == []
    assert GAME.page_moves(opening(ROUND_1 - 1).state) == []


def test_at_a_round_end_every_seat_is_offered_its_count() -> None:
    offered = the_count(opening(ROUND_1).state)
    assert offered.kind == "count" and offered.seats == (0, 1) and offered.fixed == {}
    assert offered.title == "count the cards won in round 1"
    [field] = offered.fields
    assert (field.name, field.choices, field.minimum) == ("cards", (), 0)
    assert field.maximum == GAME.playing_cards
    assert field.label == "cards won"


def test_a_seat_that_has_counted_is_offered_no_more() -> None:
    match = opening(ROUND_1)
    enter(match, 1, WON_IN_ROUND_1[1])
    assert the_count(match.state).seats == (0,)
    enter(match, 0, WON_IN_ROUND_1[0])
    assert GAME.page_moves(match.state) == []


def test_a_count_against_the_log_is_entered_and_offered_no_more_either() -> None:
    match = opening(ROUND_1)
    verdict = enter(match, 0, 3)
    assert verdict.ok and verdict.severity == "warning"
    assert the_count(match.state).seats == (1,)


def test_a_seat_that_took_nothing_is_offered_too() -> None:
    """A set the camera gave to the wrong seat shows on the count of both seats."""
    misread = replace(opening(ROUND_1).state, round_won=(0, 10))
    assert the_count(misread).seats == (0, 1)
    assert GAME.judge(misread, Move(0, "count", {"cards": 1})).severity == "warning"
    assert GAME.judge(misread, Move(1, "count", {"cards": 9})).severity == "warning"


def test_the_offer_ends_when_the_next_round_s_first_card_is_played() -> None:
    match = opening(ROUND_1 + 1)
    assert GAME.page_moves(match.state) == []
    match.undo()
    assert the_count(match.state).seats == (0, 1)


def test_an_undone_count_is_offered_again() -> None:
    match = opening(ROUND_1)
    enter(match, 1, WON_IN_ROUND_1[1])
    match.undo()
    assert the_count(match.state).seats == (0, 1)


def test_after_the_last_round_the_counts_stay_offered() -> None:
    before = opening(ROUND_1 - 1).state
    last = GAME.apply(replace(before, pile=3), Move(1, "capture", {"set": 1, "card": None}))
    assert GAME.is_over(last)
    offered = the_count(last)
    assert offered.seats == (0, 1) and offered.title == "count the cards won in round 1"
    counted = GAME.apply(last, Move(0, "count", {"cards": 1}))
    assert GAME.judge(last, Move(0, "count", {"cards": 1})).severity == "ok"
    assert the_count(counted).seats == (1,)


def test_a_count_changes_nothing_in_the_game() -> None:
    match = opening(ROUND_1)
    before = match.state
    enter(match, 0, 1)
    assert match.state == before and GAME.scores(match.state) == GAME.scores(before)
    assert GAME.to_play(match.state) == GAME.to_play(before)


# -- what the page enters is judged as written --------------------------------------------


def test_the_count_entered_on_the_page_matches_the_log() -> None:
    match = opening(ROUND_1)
    for seat, cards in WON_IN_ROUND_1.items():
        verdict = enter(match, seat, cards)
        assert verdict.ok and verdict.severity == "ok"
        assert verdict.message == "as the log says"  # after "counts 3 cards won"
    assert [move.to_json() for move in match.moves[ROUND_1:]] == [
        {"seat": 0, "move": "count", "cards": 1},
        {"seat": 1, "move": "count", "cards": 9},
    ]


def test_a_count_the_log_disagrees_with_is_a_warning_never_illegal() -> None:
    match = opening(ROUND_1)
    verdict = enter(match, 1, 8)
    assert verdict.ok and verdict.severity == "warning" and verdict.rules == ()
    assert verdict.message == (
        "the log says 9: look for a card the camera missed"
    )


def test_a_count_allows_for_a_card_fed_under_an_unknown_set() -> None:
    before = opening(ROUND_1 - 1).state
    fed = GAME.apply(before, Move(1, "feed", {"set": None, "card": None}))
    assert fed.round_unplaced == 1 and the_count(fed).seats == (0, 1)
    low = fed.round_won[0]
    within = GAME.judge(fed, Move(0, "count", {"cards": low + 1}))
    beyond = GAME.judge(fed, Move(0, "count", {"cards": low + 2}))
    assert within.severity == "ok"
    assert beyond.severity == "warning"
    assert f"the log says {low} to {low + 1}:" in beyond.message
    assert f"jurnalul spune între {low} și {low + 1};" in render(
        beyond.message, catalogue("ro")
    )


# -- in every language --------------------------------------------------------------------


def test_the_title_and_the_label_are_texts_in_every_language() -> None:
    offered = the_count(opening(ROUND_1).state)
    [field] = offered.fields
    for text in (offered.title, field.label):
        assert isinstance(text, Text)
        texts = in_every_language(text)
        assert texts["ro"] != texts["en"]
    assert render(offered.title, catalogue("ro")) == "numărați cărțile câștigate în runda 1"


def test_the_offer_is_json_for_the_page() -> None:
    offered: dict[str, Any] = the_count(opening(ROUND_1).state).to_json()
    assert offered == {
        "move": "count",
        "title": "count the cards won in round 1",
        "seats": [0, 1],
        "fields": [{"name": "cards", "label": "cards won", "minimum": 0, "maximum": 63}],
        "fixed": {},
    }
