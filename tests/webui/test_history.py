"""History: ended matches, the move-by-move replay, the per-player tally."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from referee.games import get_game
from referee.notation import parse_move
from referee.text import in_every_language


def test_the_history_lists_ended_matches_with_scores_and_winners(phone: Any) -> None:
    page = phone.page("/history")
    assert page.index('data-match-id="2"') < page.index('data-match-id="1"')
    deserto = page[page.index('data-match-id="1"'):]
    assert 'href="/history/1"' in deserto and "2026-11-28 19:30" in deserto
    assert re.search(r'class="winner" data-seat="1"><span class="name">Bogdan</span> '
                     r'<span class="score">12</span>', deserto)
    assert "Winner: Bogdan" in deserto


def test_the_tally_per_game_knows_who_wins(phone: Any) -> None:
    page = phone.page("/history")
    deserto = page[page.index('data-game="deserto"'):page.index('data-game="uno"')]
    uno = page[page.index('data-game="uno"'):]
    assert re.search(r'<tr data-player="Bogdan"><th scope="row">Bogdan</th><td class="matches">1'
                     r'</td><td class="wins">1</td><td class="points">12</td></tr>', deserto)
    assert "Lowest points win." in page[page.index("UNO: players"):]
    assert uno.index('data-player="Ana"') < uno.index('data-player="Cleo"') < uno.index(
        'data-player="Bogdan"')


def test_a_match_ended_before_any_move_is_marked_abandoned(phone: Any) -> None:
    page = phone.page("/history")
    abandoned = page[page.index('data-match-id="3"'):page.index('data-match-id="2"')]
    assert "abandoned: no move played, not counted" in abandoned
    assert "Winner" not in abandoned


def test_no_matches_yet(table: Any, phone: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(table, "history", lambda: [])
    monkeypatch.setattr(table, "tally", lambda: [])
    page = phone.page("/history")
    assert 'id="no-matches"' in page and "No match has ended yet." in page


def test_the_replay_starts_at_the_first_move(phone: Any) -> None:
    page = phone.page("/history/1")
    assert 'id="step-counter" class="step-counter">Move 1 of 3<' in page
    assert "place · cell nw · card oasis" in page
    assert 'id="step-prev"' in page and 'aria-disabled="true"' in page
    assert 'id="step-next" class="button" href="/history/1?move=2"' in page


def test_a_step_shows_the_verdict_and_the_scores_after_it(phone: Any) -> None:
    page = phone.page("/history/1?move=2")
    start = page.index('id="replay-step"')
    step = page[start : page.index("</section>", start)]
    assert 'data-ok="false"' in step and "DES-NO-BRIGAND-BY-VIZIER" in step
    assert "A brigand may not go next to a vizier" in step and "accepted by the table" in step
    assert 'src="/photos/m1-1.jpg"' in step
    scores = step[step.index('id="step-scores"'):]
    assert re.search(r'<span class="name">Ana</span> <span class="score">0</span>', scores)
    assert re.search(r'<span class="name">Bogdan</span> <span class="score">5</span>', scores)
    assert 'href="/history/1?move=1"' in step and 'href="/history/1?move=3"' in step
    assert 'aria-current="step"' in page


def test_the_replay_lists_every_move_and_the_result(phone: Any) -> None:
    page = phone.page("/history/1?move=3")
    moves = page[page.index('id="move-list"'):]
    assert moves.count("<li ") == 3
    assert 'id="step-next"' in page and "Move 3 of 3" in page
    result = page[page.index('id="result"'):page.index('id="replay-step"')]
    assert "Winner: Bogdan" in result and '<span class="score">12</span>' in result


def test_a_verdict_in_the_replay_is_in_the_pages_language(phone: Any) -> None:
    page = phone.page("/history/1?move=2", headers={"Accept-Language": "ro"})
    assert "Un brigand nu poate sta lângă un vizir" in page and "Mutarea 2 din 3" in page


def described(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with each move in words, as firmware describes it: the game's sentence in
    English and in every language of referee.text, beside the verdict's."""
    copied = copy.deepcopy(record)
    game = get_game(copied["game"])
    for row in copied["moves"]:
        said = game.describe(parse_move(game, row["move"], len(copied["seats"])))
        row["description"], row["description_texts"] = str(said), in_every_language(said)
    return copied


@pytest.fixture
def described_table(table: Any, monkeypatch: Any) -> Any:
    """The table, its records holding each move in words."""
    record = table.match_record
    monkeypatch.setattr(table, "match_record", lambda match_id: described(record(match_id)))
    return table


def test_a_move_reads_as_its_game_says_it(described_table: Any, phone: Any) -> None:
    page = phone.page("/history/1?move=2")
    step = page[page.index('id="step-move"'):page.index('id="step-verdict"')]
    assert '<span class="who">Bogdan</span> <span class="move">puts a brigand on NW</span>' in step
    moves = page[page.index('id="move-list"'):]
    assert [found.group(1) for found in re.finditer(r'<span class="move">([^<]*)<', moves)] == [
        "puts an oasis on NW", "puts a brigand on NW", "puts a treasure on NE",
    ]
    assert "cell nw" not in page


def test_a_romanian_phone_sees_the_moves_in_romanian(described_table: Any, phone: Any) -> None:
    page = phone.page("/history/1", headers={"Accept-Language": "ro"})
    step = page[page.index('id="step-move"'):page.index('id="step-verdict"')]
    assert '<span class="move">pune o oază pe NV</span>' in step
    moves = page[page.index('id="move-list"'):]
    assert '<span class="move">pune un hoț pe NV</span>' in moves
    assert "puts" not in page and "cell nw" not in page


def test_a_move_described_only_in_english_reads_in_english(
    table: Any, phone: Any, monkeypatch: Any
) -> None:
    record = described(table.match_record(1))
    record["moves"][0]["description_texts"] = {}
    monkeypatch.setattr(table, "match_record", lambda match_id: record)
    page = phone.page("/history/1", headers={"Accept-Language": "ro"})
    assert '<span class="move">puts an oasis on nw</span>' in page
    assert '<span class="move">pune un hoț pe NV</span>' in page


def test_a_record_without_words_for_its_moves_shows_the_log_s_own(phone: Any) -> None:
    """An older record, or one whose moves could not be described: the log's notation."""
    page = phone.page("/history/1", headers={"Accept-Language": "ro"})
    moves = page[page.index('id="move-list"'):]
    assert '<span class="move">place · cell nw · card brigand</span>' in moves


def test_a_match_without_moves(phone: Any) -> None:
    page = phone.page("/history/2")
    assert 'id="no-moves"' in page and 'id="replay-step"' not in page


def test_a_step_out_of_range_or_not_a_number_is_refused(
    phone: Any, refused: Callable[..., str]
) -> None:
    for step in ("0", "4", "two", ""):
        response = phone.get(f"/history/1?move={step}")
        assert response.status_code == 400, step
    assert refused(phone.get("/history/1?move=4")) == (
        "The move number must be a whole number from 1 to 3."
    )


def test_an_unknown_match_is_not_found(phone: Any) -> None:
    assert phone.get("/history/99").status_code == 404
    assert phone.get("/history/abc").status_code == 404
