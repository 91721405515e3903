"""The live page, its fragment, its JSON state and event stream, pictures and seat buttons."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from referee.games import GAMES

FLAG_RULE = "DES-NO-BRIGAND-BY-VIZIER"


def section(page: str, element_id: str) -> str:
    """The markup of the element with `element_id`, up to its closing tag."""
    start = page.index(f'id="{element_id}"')
    tag = page.rfind("<", 0, start)
    name = re.match(r"<(\w+)", page[tag:]).group(1)  # type: ignore[union-attr]
    depth, position = 0, tag
    for found in re.finditer(rf"<(/?){name}\b", page[tag:]):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            position = tag + found.end()
            break
    return page[tag : page.index(">", position) + 1]


def test_the_page_shows_seats_scores_and_the_seat_to_play(phone: Any) -> None:
    page = phone.page("/")
    seats = section(page, "seats")
    assert seats.count('<li class="seat') == 2
    name = r'>\s*<span class="name">'
    assert re.search(rf'data-seat="0" data-to-play="false"{name}Ana</span>', seats)
    assert re.search(rf'data-seat="1" data-to-play="true"{name}Bogdan</span>', seats)
    assert 'data-score="3">3<' in seats and 'data-score="17">17<' in seats
    # Bogdan's brigand is flagged: the turn stays with him until it is taken back
    assert "2 in hand" in seats and "to take the card back" in seats
    assert 'class="seat to-play flag-holds" data-seat="1"' in seats


def test_without_a_flag_the_seat_to_play_is_to_play(table: Any, phone: Any) -> None:
    table._snapshot["flagged"] = None
    seats = section(phone.page("/"), "seats")
    assert "to play" in seats and "flag-holds" not in seats


def test_the_drawing_marks_the_flagged_card_where_it_lies(table: Any, phone: Any) -> None:
    table._snapshot["table"] = [{"zone": "ne", "cards": ["vizier", "brigand"], "top": "brigand"},
                                {"zone": "nw", "cards": ["brigand"], "top": "brigand"}]
    drawing = section(phone.page("/"), "table")
    assert drawing.count("flagged-card") == 1 and drawing.count("flagged: take it back") == 1
    assert "flagged-card" in drawing[drawing.index('data-zone="ne"'):drawing.index(
        'data-zone="nw"')]  # the brigand in NE, as the move says; not the one in NW


def test_the_table_is_drawn_from_the_deck_art(phone: Any) -> None:
    table = section(phone.page("/"), "table")
    assert 'src="/cards/deserto/vizier.png"' in table and 'data-code="vizier"' in table
    assert 'class="card small" src="/cards/deserto/oasis.png"' in table
    assert 'data-zone="ne"' in table and "empty" in table
    assert "could not name: 1" in phone.page("/")


def test_a_flagged_play_is_shown_big_with_its_rule_explanation_and_photo(phone: Any) -> None:
    flag = section(phone.page("/"), "flag")
    assert "hidden" not in flag.split(">")[0]
    assert f'data-rule="{FLAG_RULE}"' in flag
    assert "A brigand may not go next to a vizier" in flag
    assert 'id="flag-seat" class="flag-seat">Bogdan<' in flag
    assert 'id="flag-photo" class="flag-photo" src="/photos/m1-4.jpg"' in flag


def test_a_flagged_play_says_what_was_played_in_the_phone_s_language(
    table: Any, phone: Any, data: dict[str, Any]
) -> None:
    flag = section(phone.page("/"), "flag")
    assert 'id="flag-move"' not in flag  # a snapshot without the game's words: none shown
    flagged = {**data["playing"]["flagged"], "description": "puts a brigand on ne",
               "description_texts": {"ro": "pune un bandit pe NE"}}
    table.publish({**data["playing"], "flagged": flagged})
    flag = section(phone.page("/"), "flag")
    assert '<p id="flag-move" class="flag-move">puts a brigand on ne</p>' in flag
    romanian = section(phone.page("/", headers={"Accept-Language": "ro"}), "flag")
    assert '<p id="flag-move" class="flag-move">pune un bandit pe NE</p>' in romanian


def test_without_a_flag_the_box_is_hidden(table: Any, phone: Any, data: dict[str, Any]) -> None:
    table.publish({**data["playing"], "flagged": None})
    flag = section(phone.page("/"), "flag")
    assert "hidden" in flag.split(">")[0] and FLAG_RULE not in flag


def test_the_latest_moves_come_newest_first_with_their_verdicts(phone: Any) -> None:
    verdicts = section(phone.page("/"), "verdicts")
    assert verdicts.index('data-index="4"') < verdicts.index('data-index="3"')
    assert 'data-index="4" data-ok="false"' in verdicts and FLAG_RULE in verdicts
    assert 'data-index="3" data-ok="true"' in verdicts
    # a plain move is said once, with no verdict word after it
    assert "fine" not in verdicts and 'class="message"' not in verdicts.split('data-index="3"')[1]


def test_only_the_configured_number_of_verdicts_is_shown(
    table: Any, make_app: Callable[..., Flask]
) -> None:
    page = make_app(table, VERDICTS_SHOWN=1).test_client().get("/").get_data(as_text=True)
    verdicts = section(page, "verdicts")
    assert 'data-index="4"' in verdicts and 'data-index="3"' not in verdicts


def test_a_question_for_the_table_is_shown(phone: Any) -> None:
    message = section(phone.page("/"), "message")
    assert "hidden" not in message and "north-west square a vizier?" in message


def test_the_winners_are_named(table: Any, phone: Any, data: dict[str, Any]) -> None:
    table.publish({**data["playing"], "status": "finished", "winners": [1]})
    winners = section(phone.page("/"), "winners")
    assert "Winner: Bogdan" in winners and "hidden" not in winners
    assert "The match is over." in phone.page("/")


def test_the_page_escapes_what_players_typed(table: Any, phone: Any, data: dict[str, Any]) -> None:
    seats = [{"seat": 0, "name": "<b>Ana</b>", "score": 0, "to_play": True, "button": True}]
    table.publish({**data["playing"], "seats": seats, "flagged": None, "verdicts": []})
    page = phone.page("/")
    assert "<b>Ana</b>" not in page and "&lt;b&gt;Ana&lt;/b&gt;" in page


def test_the_page_renders_while_waiting_and_offers_the_qr_code(
    make_app: Callable[..., Flask], make_table: Callable[..., Any], data: dict[str, Any]
) -> None:
    from_waiting = make_app(make_table(data["waiting"])).test_client().get("/")
    page = from_waiting.get_data(as_text=True)
    assert from_waiting.status_code == 200
    assert "No match in progress." in page
    assert '<details id="join" class="join" open>' in page
    assert 'id="join-qr" class="qr" src="/qr.svg"' in page


def test_the_fragment_is_the_changing_part_with_its_version(table: Any, phone: Any,
                                                            data: dict[str, Any]) -> None:
    response = phone.get("/live")
    assert response.headers["Cache-Control"] == "no-store"
    fragment = response.get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="live"') and 'data-version="1"' in fragment
    assert "<html" not in fragment
    table.publish({**data["playing"], "seats": [{**data["playing"]["seats"][0], "score": 30}]})
    fragment = phone.page("/live")
    assert 'data-version="2"' in fragment and 'data-score="30"' in fragment


def test_api_state_returns_the_snapshot(phone: Any, data: dict[str, Any]) -> None:
    response = phone.get("/api/state")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.get_json() == {**data["playing"], "version": 1}


def test_healthz(phone: Any) -> None:
    assert phone.get("/healthz").get_json() == {"ok": True}


def data_of(chunk: str) -> dict[str, Any]:
    data_lines = [line for line in chunk.splitlines() if line.startswith("data: ")]
    assert len(data_lines) == 1, chunk
    snapshot: dict[str, Any] = json.loads(data_lines[0].removeprefix("data: "))
    return snapshot


def test_events_stream_the_snapshot_and_each_new_one(
    table: Any, app: Flask, data: dict[str, Any]
) -> None:
    response = app.test_client().get("/events", buffered=False)
    try:
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-store"
        chunks = (chunk.decode() for chunk in response.iter_encoded())
        first = next(chunks)
        assert first.startswith("retry: ")
        assert data_of(first)["seats"][1]["name"] == "Bogdan"
        assert next(chunks) == ": keep-alive\n\n"
        table.publish({**data["playing"], "message": "Ana to play"})
        second = next(chunks)
        assert "id: 2\n" in second
        assert data_of(second) == {**data["playing"], "message": "Ana to play", "version": 2}
    finally:
        response.close()


def test_an_event_stream_ends_after_its_lifetime(
    table: Any, make_app: Callable[..., Flask]
) -> None:
    app = make_app(table, SSE_KEEPALIVE_SECONDS=0.05, SSE_LIFETIME_SECONDS=0.2)
    response = app.test_client().get("/events", buffered=False)
    chunks = [chunk.decode() for chunk in response.iter_encoded()]
    response.close()
    assert "data: " in chunks[0]
    assert set(chunks[1:]) == {": keep-alive\n\n"}


def test_card_art_is_served_with_cache_headers(phone: Any) -> None:
    response = phone.get("/cards/deserto/vizier.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data.startswith(b"\x89PNG")
    assert "max-age=" in response.headers["Cache-Control"]


def test_missing_or_malformed_card_names_are_not_found(phone: Any) -> None:
    for path in ("/cards/deserto/camel.png", "/cards/uno/vizier.png",
                 "/cards/deserto/..%2Fsecret.png", "/cards/deserto/.hidden.png"):
        assert phone.get(path).status_code == 404, path


def test_photos_are_served_and_unknown_keys_are_not_found(phone: Any) -> None:
    response = phone.get("/photos/m1-4.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.headers["Cache-Control"] == "private, no-cache"
    again = phone.get("/photos/m1-4.jpg", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert phone.get("/photos/nope.jpg").status_code == 404
    assert phone.get("/photos/..%2Fetc.jpg").status_code == 404


def claim(phone: Any, seat: int | str) -> None:
    """The phone says "This is me" for `seat` ("" lets it go)."""
    assert phone.post("/me", {"seat": str(seat)}).status_code == 303


def test_seats_without_a_physical_button_get_one_on_the_page(phone: Any) -> None:
    # Until a phone says which seat it is, it offers only "This is me".
    unclaimed = section(phone.page("/"), "seats")
    assert 'data-claim="1">This is me</button>' in unclaimed and 'data-claim="0"' not in unclaimed
    assert "data-seat-buttons" not in unclaimed
    claim(phone, 1)
    seats = section(phone.page("/"), "seats")
    assert 'data-seat-buttons="1"' in seats and 'data-seat-buttons="0"' not in seats
    assert 'data-claim="1">Not me</button>' in seats
    # Deserto, Bogdan to play and the last to move: what a press does now, in words
    assert 'data-kind="hold">I&#39;m stuck: I give a card</button>' in seats
    assert 'data-kind="double">Take back my move</button>' in seats
    assert 'data-kind="press"' not in seats  # a press means nothing in Deserto


def test_seat_buttons_are_offered_to_the_seats_they_mean_something_for() -> None:
    from webui.i18n import load_catalogues
    from webui.seat_buttons import offered

    words = load_catalogues()["ro"]
    seats = [{"seat": n, "to_play": n == 2, "button": False} for n in range(3)]
    snapshot = {"game": "uno", "seats": seats, "verdicts": [{"index": 0, "seat": 1}]}
    assert offered(snapshot, words) == {
        0: [("press", "Am pus o carte identică"), ("hold", "Trag")],
        1: [("press", "Am pus o carte identică"), ("double", "Îmi retrag mutarea"),
            ("hold", "Trag")],
        2: [("press", "Am pus o carte identică"), ("hold", "Trag")],
    }
    tempus = offered({**snapshot, "game": "tempus"}, words)
    assert tempus == {0: [], 1: [("double", "Îmi retrag mutarea")],
                      2: [("press", "Am strecurat o carte sub un set")]}
    kanaloa = offered({**snapshot, "game": "kanaloa",
                       "page_moves": [{"move": "dolphin", "seats": [2]}]}, words)
    assert kanaloa == {
        0: [("press", "Următoarea carte e a mea")],
        1: [("press", "Următoarea carte e a mea"), ("double", "Îmi retrag mutarea")],
        2: [("press", "Corabia mea face pasul delfinului"),
            ("hold", "Corabia mea renunță la pas")],
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_s_seat_buttons_say_what_a_press_does(game: str) -> None:
    """Never "Press" / "Hold": each game's gestures are named by what they do."""
    from webui.i18n import load_catalogues
    from webui.seat_buttons import offered

    for words in load_catalogues().values():
        seats = [{"seat": n, "to_play": n == 0, "button": False} for n in range(3)]
        snapshot = {"game": game, "seats": seats, "verdicts": [{"index": 0, "seat": 0}]}
        labels = {label for buttons in offered(snapshot, words).values()
                  for _, label in buttons}
        assert labels and not labels & {words.say(f"button.{kind}")
                                        for kind in ("press", "double", "hold")}


def test_a_seat_button_on_the_page_presses_without_a_pin(table: Any, phone: Any) -> None:
    claim(phone, 1)
    response = phone.post("/seat", {"seat": "1", "kind": "hold"}, token=True)
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert table.calls == [("press", 1, "hold")]


def test_a_phone_presses_only_the_seat_it_claimed_and_the_admin_any(
    table: Any, phone: Any
) -> None:
    assert phone.post("/seat", {"seat": "1", "kind": "hold"}).status_code == 403
    claim(phone, 1)
    claim(phone, "")  # "Not me": let it go
    assert phone.post("/seat", {"seat": "1", "kind": "hold"}).status_code == 403
    assert phone.post("/me", {"seat": "0"}).status_code == 400  # it has its own button
    phone.log_in()  # the admin presses any seat, and sees every seat's buttons
    assert phone.post("/seat", {"seat": "1", "kind": "hold"}).status_code == 303
    assert 'data-seat-buttons="1"' in section(phone.page("/"), "seats")
    assert table.calls == [("press", 1, "hold")]

def test_the_page_script_gets_a_json_answer(table: Any, phone: Any) -> None:
    claim(phone, 1)
    response = phone.post("/seat", {"seat": "1", "kind": "double"},
                          headers={"Accept": "application/json"})
    assert response.status_code == 200
    assert response.get_json() == {"ok": True, "message": "Pressed."}
    refused = phone.post("/seat", {"seat": "0", "kind": "press"},
                         headers={"Accept": "application/json"})
    assert refused.status_code == 400
    assert refused.get_json() == {"ok": False,
                                  "error": "That seat has its own button on the table."}
    assert table.calls == [("press", 1, "double")]


def test_malformed_presses_are_refused_and_press_nothing(
    table: Any, phone: Any, clock: Any, refused: Callable[..., str]
) -> None:
    cases = {
        ("0", "press"): "That seat has its own button on the table.",
        ("one", "press"): "The seat must be a whole number from 0 to 1.",
        ("7", "press"): "The seat must be a whole number from 0 to 1.",
        ("-1", "press"): "The seat must be a whole number from 0 to 1.",
        ("1.0", "press"): "The seat must be a whole number from 0 to 1.",
        ("1", "kick"): "A seat button is pressed, double pressed or held; nothing else.",
        ("1", ""): "Fill in the button gesture.",
        ("", "press"): "Fill in the seat.",
    }
    for (seat, kind), message in cases.items():
        clock.now += 60.0  # past the rate limit, which counts refused presses too
        response = phone.post("/seat", {"seat": seat, "kind": kind})
        assert response.status_code == 400, (seat, kind)
        assert refused(response) == message
    assert table.calls == []


def test_a_press_without_the_csrf_token_is_refused(
    table: Any, phone: Any, refused: Callable[..., str]
) -> None:
    phone.page("/")
    for token in (None, "forged"):
        form = {"seat": "1", "kind": "press"} | ({"csrf": token} if token else {})
        response = phone.client.post("/seat", data=form)
        assert response.status_code == 403
        assert refused(response).startswith("This form is out of date or came from another site")
    assert table.calls == []


def test_seat_presses_are_rate_limited_per_phone(
    table: Any, phone: Any, clock: Any, refused: Callable[..., str]
) -> None:
    token = phone.token("/")
    claim(phone, 1)
    for _ in range(6):
        assert phone.post("/seat", {"csrf": token, "seat": "1", "kind": "press"}).status_code == 303
    response = phone.post("/seat", {"csrf": token, "seat": "1", "kind": "press"})
    assert response.status_code == 429
    assert refused(response) == "Too many presses from this phone: wait 5 s."
    assert len(table.calls) == 6
    clock.now += 5.0
    assert phone.post("/seat", {"csrf": token, "seat": "1", "kind": "press"}).status_code == 303
    assert len(table.calls) == 7


def test_no_seat_buttons_while_no_match_is_played(table: Any, phone: Any,
                                                  data: dict[str, Any]) -> None:
    table.publish({**data["playing"], "status": "finished"})
    assert "data-seat-buttons" not in phone.page("/")


def test_a_move_that_proves_an_earlier_one_illegal_flags_that_one(
    table: Any, phone: Any, data: dict[str, Any]
) -> None:
    proof = {"index": 6, "seat": 0, "ok": False, "rules": ["UNO-WILD-RESTRICT"],
             "message": "a wild while holding the colour", "concerns": 2,
             "texts": {"ro": "un joker deși avea culoarea"}}
    revealing = {"index": 6, "seat": 1, "ok": True, "rules": [], "message": "", "flagged": True,
                 "accepted": False, "photo": None, "move": {"seat": 1, "move": "reveal"},
                 "deferred": [proof]}
    table.publish({**data["playing"], "verdicts": [revealing], "flagged": revealing})
    page = phone.page("/")
    flag = section(page, "flag")
    assert 'id="flag-seat" class="flag-seat">Ana <span class="concerns">about move #3' in flag
    assert "a wild while holding the colour" in flag and 'data-rule="UNO-WILD-RESTRICT"' in flag
    verdicts = section(page, "verdicts")
    assert 'class="proofs"' in verdicts and 'data-concerns="2"' in verdicts
    assert "un joker deși avea culoarea" in phone.page("/", headers={"Accept-Language": "ro"})


def test_each_verdict_says_what_the_move_was(phone: Any) -> None:
    verdicts = section(phone.page("/"), "verdicts")
    assert '<span class="move">place · cell ne · card brigand</span>' in verdicts


def test_a_move_reads_in_the_game_s_words_in_the_phone_s_language(
    table: Any, phone: Any, data: dict[str, Any]
) -> None:
    latest = {**data["playing"]["verdicts"][0], "description": "puts a brigand on ne",
              "description_texts": {"en": "puts a brigand on ne", "ro": "pune un bandit pe NE"}}
    table.publish({**data["playing"], "verdicts": [latest]})
    assert '<span class="move">puts a brigand on ne</span>' in section(phone.page("/"), "verdicts")
    romanian = section(phone.page("/", headers={"Accept-Language": "ro"}), "verdicts")
    assert '<span class="move">pune un bandit pe NE</span>' in romanian


def test_news_that_goes_on_with_a_mark_sits_against_the_move(
    table: Any, phone: Any, data: dict[str, Any]
) -> None:
    latest = {**data["playing"]["verdicts"][0], "description": "discards red 13",
              "message": "; seat 1 to play", "texts": {"en": "; Bogdan to play"}}
    table.publish({**data["playing"], "verdicts": [latest]})
    assert ('<span class="move">discards red 13</span><span class="message attached">; Bogdan '
            'to play</span>') in section(phone.page("/"), "verdicts")


def test_the_dealer_is_said_to_deal_while_dealing(table: Any, phone: Any) -> None:
    table._snapshot.update(flagged=None, dealing=1)
    seats = section(phone.page("/"), "seats")
    assert re.search(r'data-seat="1" data-to-play="true">\s*<span class="name">Bogdan</span>\s*'
                     r'<span class="turn">deals</span>', seats)
