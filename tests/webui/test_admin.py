"""Admin behind the PIN: first run, login and its rate limit, logout, and every action,
each refused with a clear message (and nothing changed) when it is not right."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

START = {
    "game": "deserto",
    "seat": ["Ana", " Bogdan ", "", ""],
    "first": "1",
    "option-placed_card_stays": "false",
    "option-square_at_end": '"last_capturer"',
}
PAGE_MOVE = {"move": "count", "seat": "1", "field-cards": "12", "field-colour": '"red"'}

ACTIONS: dict[str, dict[str, Any]] = {
    "/admin/start": START,
    "/admin/end": {},
    "/admin/undo": {},
    "/admin/accept": {"index": "4"},
    "/admin/card": {"card": "0", "code": "vizier"},
    "/admin/move": PAGE_MOVE,
}
CALLS: dict[str, tuple[Any, ...]] = {
    "/admin/start": ("start_match", {"game": "deserto", "seats": ["Ana", "Bogdan"], "first": 1,
                                     "options": {"placed_card_stays": False,
                                                 "square_at_end": "last_capturer"}}),
    "/admin/end": ("end_match",),
    "/admin/undo": ("undo",),
    "/admin/accept": ("accept", 4),
    "/admin/card": ("correct_card", 0, "vizier"),
    "/admin/move": ("page_move", 1, "count", {"cards": 12, "colour": "red"}),
}


# -- first run ------------------------------------------------------------------------


@pytest.fixture
def first_run(make_table: Callable[..., Any], data: dict[str, Any]) -> Any:
    return make_table(data["playing"], pin=None)


def test_first_run_asks_for_a_pin_and_says_what_is_allowed(
    first_run: Any, make_app: Callable[..., Flask]
) -> None:
    page = make_app(first_run).test_client().get("/admin").get_data(as_text=True)
    assert 'id="pin-setup-form"' in page and 'id="pin-again"' in page
    assert "4 to 8 digits (0–9), nothing else." in page


@pytest.mark.parametrize(
    ("pin", "again", "message"),
    [
        ("123", "123", "The PIN must be 4 to 8 digits (0–9), nothing else."),
        ("123456789", "123456789", "The PIN must be 4 to 8 digits (0–9), nothing else."),
        ("12a4", "12a4", "The PIN must be 4 to 8 digits (0–9), nothing else."),
        ("١٢٣٤", "١٢٣٤", "The PIN must be 4 to 8 digits (0–9), nothing else."),
        ("", "", "The PIN must be 4 to 8 digits (0–9), nothing else."),
        ("2468", "2469", "The two PINs differ: type the same PIN twice."),
    ],
)
def test_a_malformed_first_pin_is_refused(
    first_run: Any, make_app: Callable[..., Flask], refused: Callable[..., str],
    pin: str, again: str, message: str,
) -> None:
    client = make_app(first_run).test_client()
    token = _token(client.get("/admin").get_data(as_text=True))
    response = client.post("/admin/pin", data={"csrf": token, "pin": pin, "again": again})
    assert response.status_code == 400
    assert refused(response) == message
    assert first_run.calls == [] and first_run.pin is None


def test_the_first_pin_is_set_and_opens_an_admin_session(
    first_run: Any, make_app: Callable[..., Flask]
) -> None:
    client = make_app(first_run).test_client()
    token = _token(client.get("/admin").get_data(as_text=True))
    response = client.post("/admin/pin", data={"csrf": token, "pin": "24680", "again": "24680"})
    assert response.status_code == 303 and response.headers["Location"] == "/admin"
    assert first_run.calls == [("set_pin", "24680")]
    page = client.get("/admin").get_data(as_text=True)
    assert "The PIN is set; you are logged in." in page and 'id="logout-form"' in page


def test_once_set_the_pin_cannot_be_set_again_without_the_admin_session(
    table: Any, phone: Any, refused: Callable[..., str]
) -> None:
    response = phone.post("/admin/pin", {"pin": "0000", "again": "0000"})
    assert response.status_code == 403
    assert refused(response) == "Log in with the admin PIN first."
    assert table.calls == []


def test_login_is_refused_before_any_pin_is_set(
    first_run: Any, make_app: Callable[..., Flask], refused: Callable[..., str]
) -> None:
    client = make_app(first_run).test_client()
    token = _token(client.get("/admin").get_data(as_text=True))
    response = client.post("/admin/login", data={"csrf": token, "pin": "1234"})
    assert response.status_code == 400 and "No admin PIN is set yet" in refused(response)


# -- login, its rate limit, logout ------------------------------------------------------


def test_the_login_page_and_a_login(phone: Any) -> None:
    page = phone.page("/admin")
    assert 'id="login-form"' in page and 'id="login-pin"' in page
    phone.log_in()
    page = phone.page("/admin")
    assert "Logged in." in page
    for element in ("admin-status", "admin-flag", "accept-form", "admin-unknown",
                    "admin-page-moves", "undo-form", "admin-end", "new-match-link",
                    "pin-change-form", "logout-form", "admin-join"):
        assert f'id="{element}"' in page, element


def test_a_wrong_pin_is_refused_and_says_how_many_tries_are_left(
    phone: Any, refused: Callable[..., str]
) -> None:
    response = phone.post("/admin/login", {"pin": "9999"})
    assert response.status_code == 403
    assert refused(response) == "Wrong PIN. 4 more tries before this phone has to wait."
    assert 'id="login-form"' in phone.page("/admin")
    assert phone.post("/admin/undo").status_code == 403


def test_five_wrong_pins_make_the_phone_wait_even_with_the_right_one(
    table: Any, phone: Any, clock: Any, refused: Callable[..., str]
) -> None:
    for _ in range(4):
        assert phone.post("/admin/login", {"pin": "0000"}).status_code == 403
    fifth = phone.post("/admin/login", {"pin": "0000"})
    assert fifth.status_code == 429
    assert refused(fifth) == "Wrong PIN, too many times: this phone can try again in 60 s."
    checks = table.pin_checks
    clock.now += 30
    right = phone.post("/admin/login", {"pin": "1234"})
    assert right.status_code == 429
    assert refused(right) == "Too many wrong PINs from this phone: try again in 30 s."
    assert table.pin_checks == checks  # a locked-out phone's PIN is not even checked
    clock.now += 30
    phone.log_in()
    assert phone.post("/admin/undo").status_code == 303


def test_the_wait_doubles_after_each_lockout(phone: Any, clock: Any,
                                             refused: Callable[..., str]) -> None:
    for lockout in (60, 120, 240):
        for _ in range(5):
            response = phone.post("/admin/login", {"pin": "0000"})
        assert refused(response).endswith(f"try again in {lockout} s.")
        clock.now += lockout


def test_the_limit_is_per_phone(app: Flask, clock: Any) -> None:
    def attempt(address: str, pin: str) -> int:
        client = app.test_client()
        environ = {"REMOTE_ADDR": address}
        token = _token(client.get("/admin", environ_base=environ).get_data(as_text=True))
        return client.post("/admin/login", data={"csrf": token, "pin": pin},
                           environ_base=environ).status_code

    for _ in range(5):
        attempt("192.168.1.66", "0000")
    assert attempt("192.168.1.66", "1234") == 429
    assert attempt("192.168.1.7", "1234") == 303


def test_logout_ends_the_admin_session(table: Any, admin: Any) -> None:
    response = admin.post("/admin/logout")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "Logged out." in admin.page("/")
    assert admin.post("/admin/undo").status_code == 403
    assert table.calls == []


def test_the_session_cookie_is_httponly_and_samesite_lax(phone: Any) -> None:
    response = phone.post("/admin/login", {"pin": "1234"})
    cookie = next(value for value in response.headers.getlist("Set-Cookie")
                  if value.startswith("tableref_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_an_admin_session_survives_a_restart_with_the_same_secret_key(
    table: Any, admin: Any, make_app: Callable[..., Flask]
) -> None:
    cookie = admin.client.get_cookie("tableref_session")
    assert cookie is not None
    restarted = make_app(table).test_client()
    restarted.set_cookie("tableref_session", cookie.value)
    page = restarted.get("/admin").get_data(as_text=True)
    assert 'id="logout-form"' in page


# -- the actions --------------------------------------------------------------------


@pytest.mark.parametrize("path", list(ACTIONS))
def test_each_action_reaches_the_table(table: Any, admin: Any, path: str) -> None:
    response = admin.post(path, ACTIONS[path])
    assert response.status_code == 303 and response.headers["Location"] == "/admin"
    assert table.calls == [CALLS[path]]
    assert 'id="notice"' in admin.page("/admin")


@pytest.mark.parametrize("path", list(ACTIONS))
def test_each_action_needs_the_admin_session(
    table: Any, phone: Any, refused: Callable[..., str], path: str
) -> None:
    response = phone.post(path, ACTIONS[path])
    assert response.status_code == 403
    assert refused(response) == "Log in with the admin PIN first."
    assert table.calls == []


@pytest.mark.parametrize("path", [*ACTIONS, "/admin/login", "/admin/logout", "/admin/pin"])
@pytest.mark.parametrize("token", [None, "", "forged-token"])
def test_each_post_without_the_sessions_csrf_token_is_refused(
    table: Any, admin: Any, refused: Callable[..., str], path: str, token: str | None
) -> None:
    form = {**ACTIONS.get(path, {}), "pin": "1234", "again": "1234", "old": "1234"}
    if token is not None:
        form["csrf"] = token
    response = admin.post(path, form, token=False)
    assert response.status_code == 403
    assert refused(response) == (
        "This form is out of date or came from another site: reload the page and try again."
    )
    assert table.calls == []
    assert 'id="logout-form"' in admin.page("/admin")  # still logged in


def test_another_sessions_token_is_refused(table: Any, admin: Any, app: Flask) -> None:
    other = app.test_client()
    other_token = _token(other.get("/").get_data(as_text=True))
    assert other_token != admin.token()
    assert admin.post("/admin/undo", {"csrf": other_token}).status_code == 403
    assert table.calls == []


MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("/admin/start", {**START, "game": "chess"}, "There is no game called chess."),
    ("/admin/start", {k: v for k, v in START.items() if k != "game"}, "Fill in the game."),
    ("/admin/start", {**START, "seat": ["Ana"]}, "Deserto is for 2 to 4 players, not 1."),
    ("/admin/start", {**START, "seat": ["A", "B", "C", "D", "E"]},
     "Deserto is for 2 to 4 players, not 5."),
    ("/admin/start", {**START, "seat": ["Ana", "ana"]},
     "Two seats have the same name: give each player their own."),
    ("/admin/start", {**START, "seat": ["Ana", "B" * 25]}, "A name is at most 24 characters."),
    ("/admin/start", {**START, "first": "two"},
     "The starting seat must be a whole number from 0 to 1."),
    ("/admin/start", {**START, "first": "2"},
     "The starting seat must be a whole number from 0 to 1."),
    ("/admin/start", {k: v for k, v in START.items() if k != "first"},
     "Fill in the starting seat."),
    ("/admin/start", {**START, "option-placed_card_stays": "1"},
     "Choose the house option from the list."),
    ("/admin/start", {**START, "option-square_at_end": "everybody"},
     "Choose the house option from the list."),
    ("/admin/start", {k: v for k, v in START.items() if k != "option-square_at_end"},
     "Fill in the house option."),
    ("/admin/accept", {"index": "3"},
     "Another play is flagged now: reload the admin page and look again."),
    ("/admin/accept", {"index": "four"},
     "The flagged move must be a whole number from 0 to 1000000000."),
    ("/admin/accept", {}, "Fill in the flagged move."),
    ("/admin/card", {"card": "1", "code": "vizier"},
     "The unknown card must be a whole number from 0 to 0."),
    ("/admin/card", {"card": "x", "code": "vizier"},
     "The unknown card must be a whole number from 0 to 0."),
    ("/admin/card", {"card": "0", "code": "camel"}, "camel is not a card of this game."),
    ("/admin/card", {"card": "0"}, "Fill in the card."),
    ("/admin/move", {**PAGE_MOVE, "move": "bid"},
     "That move cannot be entered now: reload the admin page."),
    ("/admin/move", {**PAGE_MOVE, "seat": "one"}, "The seat must be a whole number from 0 to 1."),
    ("/admin/move", {**PAGE_MOVE, "seat": "3"}, "The seat must be a whole number from 0 to 1."),
    ("/admin/move", {**PAGE_MOVE, "field-cards": "41"},
     "The Cards must be a whole number from 0 to 40."),
    ("/admin/move", {**PAGE_MOVE, "field-cards": "-1"},
     "The Cards must be a whole number from 0 to 40."),
    ("/admin/move", {**PAGE_MOVE, "field-cards": "1e3"},
     "The Cards must be a whole number from 0 to 40."),
    ("/admin/move", {k: v for k, v in PAGE_MOVE.items() if k != "field-cards"},
     "Fill in the Cards."),
    ("/admin/move", {**PAGE_MOVE, "field-colour": '"green"'}, "Choose the Colour from the list."),
    ("/admin/move", {**PAGE_MOVE, "field-colour": "red"}, "Choose the Colour from the list."),
]


@pytest.mark.parametrize(("path", "form", "message"), MALFORMED)
def test_malformed_input_is_refused_with_a_clear_message_and_changes_nothing(
    table: Any, admin: Any, refused: Callable[..., str],
    path: str, form: dict[str, Any], message: str,
) -> None:
    response = admin.post(path, form)
    assert response.status_code == 400
    assert refused(response) == message
    assert table.calls == []


def test_a_page_move_for_a_seat_it_does_not_offer_is_refused(
    table: Any, admin: Any, data: dict[str, Any], refused: Callable[..., str]
) -> None:
    moves = [{**data["playing"]["page_moves"][0], "seats": [0]}]
    table.publish({**data["playing"], "page_moves": moves})
    response = admin.post("/admin/move", PAGE_MOVE)
    assert response.status_code == 400
    assert refused(response) == "That seat cannot make this move now."
    assert table.calls == []


def test_nothing_to_accept_or_name_is_refused(
    table: Any, admin: Any, data: dict[str, Any], refused: Callable[..., str]
) -> None:
    table.publish({**data["playing"], "flagged": None, "unknown": []})
    assert refused(admin.post("/admin/accept", {"index": "4"})) == "No play is flagged now."
    response = admin.post("/admin/card", {"card": "0", "code": "vizier"})
    assert response.status_code == 400
    assert refused(response) == "That card is no longer unknown: reload the admin page."
    assert table.calls == []


def test_the_tables_own_refusal_is_shown_the_same_way(
    table: Any, admin: Any, refused: Callable[..., str]
) -> None:
    table.refuse_with = "There is no move to undo."
    response = admin.post("/admin/undo", headers={"Referer": "http://localhost/admin"})
    assert response.status_code == 409
    assert refused(response) == "There is no move to undo."
    assert 'id="error-back" href="/admin"' in response.get_data(as_text=True)
    assert table.calls == []


# -- the forms ------------------------------------------------------------------------


def test_the_panel_offers_the_flag_the_unknown_card_and_the_page_move(admin: Any) -> None:
    page = admin.page("/admin")
    assert '<input type="hidden" name="index" value="4">' in page
    assert 'data-code="vizier"' in page and 'src="/cards/deserto/vizier.png"' in page
    assert 'class="unknown-photo" src="/photos/u0.jpg"' in page
    assert 'data-move="count"' in page and "Cards won at the round end" in page
    assert 'name="field-cards"' in page and 'min="0" max="40"' in page
    assert "<option value='\"red\"'>red</option>" in page


def test_the_new_match_page_lists_the_games_then_shows_one(admin: Any) -> None:
    page = admin.page("/admin/new")
    assert 'id="game-list"' in page and 'data-game="deserto"' in page and 'data-game="uno"' in page
    assert "2 to 4 players" in page
    form = admin.page("/admin/new?game=deserto")
    assert 'id="start-form"' in form and 'id="seat-name-3"' in form
    assert 'id="seat-name-4"' not in form
    assert 'id="first"' in form and 'id="start-button"' in form
    assert "<legend>A card that captures</legend>" in form
    choice = '<input type="radio" name="option-{}" value=\'{}\'{}> <span class="choice-text">{}'
    assert choice.format("placed_card_stays", "true", " checked", "stays in the square") in form
    assert choice.format("square_at_end", '"nobody"', " checked", "count for nobody") in form
    assert choice.format("square_at_end", '"last_capturer"', "",
                         "go to the last player who captured") in form
    assert "square_at_end" not in form.replace('"option-square_at_end"', "").replace(
        'data-option="square_at_end"', "")  # the option's name only names the field


def test_the_new_match_page_needs_the_admin_session(phone: Any) -> None:
    assert phone.get("/admin/new").status_code == 403


def test_changing_the_pin_needs_the_old_one(
    table: Any, admin: Any, refused: Callable[..., str]
) -> None:
    wrong = admin.post("/admin/pin", {"old": "9999", "pin": "5678", "again": "5678"})
    assert wrong.status_code == 403 and refused(wrong).startswith("Wrong PIN.")
    assert table.calls == []
    right = admin.post("/admin/pin", {"old": "1234", "pin": "5678", "again": "5678"})
    assert right.status_code == 303
    assert table.calls == [("set_pin", "5678")]


def test_admin_actions_are_post_only(table: Any, admin: Any) -> None:
    for path in ACTIONS:
        if path != "/admin/end":  # its GET asks first (test_ending_asks_first)
            assert admin.get(path).status_code == 405
    assert table.calls == []


def test_ending_asks_first_with_the_scores_and_a_way_back(table: Any, admin: Any) -> None:
    panel = admin.page("/admin")
    end = panel[panel.index('id="admin-end"'):]
    assert panel.index('id="undo-form"') < panel.index('id="admin-pin-change"') < panel.index(
        'id="admin-end"')  # apart from Undo and the corrections
    assert 'id="end-button" class="button danger" href="/admin/end"' in end
    confirm = admin.page("/admin/end")
    assert table.calls == []
    assert "End the match?" in confirm and "Deserto ends now" in confirm
    assert "Ana 3" in confirm and 'id="end-yes"' in confirm
    assert 'id="end-cancel" class="button secondary" href="/admin"' in confirm


def test_a_finished_match_is_not_offered_to_end(table: Any, admin: Any) -> None:
    table._snapshot["status"] = "finished"
    assert 'id="admin-end"' not in admin.page("/admin")
    assert admin.get("/admin/end").status_code == 400


def test_undo_names_the_move_it_takes_back(table: Any, admin: Any) -> None:
    page = admin.page("/admin")
    last = table.snapshot()["verdicts"][-1]
    assert f'data-index="{last["index"]}">Take back move #{last["index"] + 1}: ' in page


def _token(page: str) -> str:
    marker = 'name="csrf" value="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


def test_page_move_labels_and_choices_come_in_the_pages_language(admin: Any) -> None:
    admin.get("/lang/ro")
    page = admin.page("/admin")
    assert "Cărți câștigate la sfârșitul rundei" in page and "Cărți" in page
    assert "<option value='\"red\"'>roșu</option>" in page
