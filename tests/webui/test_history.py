"""History: ended matches, the move-by-move replay, the per-player tally."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


def test_the_history_lists_ended_matches_with_scores_and_winners(phone: Any) -> None:
    page = phone.page("/history")
    assert page.index('data-match-id="2"') < page.index('data-match-id="1"')
    deserto = page[page.index('data-match-id="1"'):]
    assert 'href="/history/1"' in deserto and "2026-11-28 19:30" in deserto
    assert re.search(r'class="winner" data-seat="1"><span class="name">Bogdan</span> '
                     r'<span class="score">12</span>', deserto)
    assert "Winner: Bogdan" in deserto


def test_the_tally_per_player(phone: Any) -> None:
    page = phone.page("/history")
    assert re.search(r'<tr data-player="Bogdan"><th scope="row">Bogdan</th><td class="matches">2'
                     r'</td><td class="wins">1</td><td class="points">119</td></tr>', page)


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
