"""The table service: a match started as the page starts it, fed recorded frames, with
the page's requests (accept, undo, end, PIN) and the history they leave in SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.commands import start_or_resume
from firmware.service import TableService, lowest_won
from firmware.session import play_session
from firmware.store import MatchStore
from hardware.camera import ReplayCamera, read_session_metadata
from hardware.panel import SimulatedPanel
from referee.text import LANGUAGES
from vision.mat import MatSpec
from webui.control import ControlError

SESSION = Path(__file__).resolve().parents[1] / "fixtures/deserto/two-players-daylight"
HEADER = {"game": "deserto", "seats": ["Ana", "Bogdan"], "first": 0, "options": {}}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MatchStore]:
    store = MatchStore.open(tmp_path / "tableref.sqlite")
    yield store
    store.close()


def make_service(store: MatchStore) -> TableService:
    mat = MatSpec.from_json(read_session_metadata(SESSION)["mat"])
    return TableService(store, SimulatedPanel(2), mat, buttons=1)


def play_until_flagged(service: TableService) -> None:
    """Feed the session's frames until the referee flags a play (the brigand, #7)."""
    camera = ReplayCamera(SESSION)
    while (frame := camera.read()) is not None:
        service.on_frame(frame.image, f"frame {frame.index}", frame.t)
        if service.snapshot()["flagged"] is not None:
            return
    raise AssertionError("the session never flagged a play")


def test_a_flagged_play_is_shown_with_its_texts_and_photo_and_can_be_accepted(
    store: MatchStore,
) -> None:
    service = make_service(store)
    assert service.snapshot()["status"] == "waiting"
    service.start_match(HEADER)
    play_until_flagged(service)
    flagged = service.snapshot()["flagged"]
    assert flagged["index"] == 7 and flagged["rules"] == ["DES-NO-BRIGAND-BY-VIZIER"]
    assert flagged["texts"]["en"] == "a brigand may not go next to a vizier"
    assert set(flagged["texts"]) == set(LANGUAGES)
    photo = service.photo(flagged["photo"])
    assert photo is not None and photo.startswith(b"\xff\xd8")  # a JPEG
    assert [seat["button"] for seat in service.snapshot()["seats"]] == [True, False]

    service.accept(7)
    snapshot = service.snapshot()
    assert snapshot["flagged"] is None and snapshot["verdicts"][-1]["accepted"] is True
    match_id = snapshot["match_id"]
    assert [m.accepted for m in store.logged_moves(match_id)][-1] is True
    assert store.events(match_id)[-1]["action"] == "accept"
    with pytest.raises(ControlError, match="was not flagged"):
        service.accept(0)


def test_undo_on_the_page_drops_the_last_move_and_its_photo(store: MatchStore) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    play_until_flagged(service)
    match_id = service.snapshot()["match_id"]
    service.undo()
    assert len(store.moves(match_id)) == 7 and store.photo(match_id, 7) is None
    assert service.snapshot()["flagged"] is None
    assert store.events(match_id)[-1] == {**store.events(match_id)[-1], "action": "undo",
                                          "index": 7}


def test_a_restarted_service_resumes_the_match_with_its_overrides(store: MatchStore) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    play_until_flagged(service)
    service.accept(7)
    before = service.snapshot()

    again = make_service(store)
    resumed = again.resume(HEADER)
    assert resumed is not None and resumed.id == before["match_id"]
    after = again.snapshot()
    assert after["verdicts"] == before["verdicts"]
    assert [s["score"] for s in after["seats"]] == [s["score"] for s in before["seats"]]
    assert again.resume({**HEADER, "seats": ["Ana", "Carmen"]}) is None


def test_a_whole_session_ends_in_the_history_and_the_tally(store: MatchStore) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    play_session(service, SESSION, SimulatedPanel(2))
    assert service.snapshot()["status"] == "finished"
    [ended] = service.history()
    assert ended["seats"] == ["Ana", "Bogdan"] and ended["final"] is True
    record = service.match_record(ended["id"])
    assert len(record["moves"]) == ended["moves"] > 30
    assert record["moves"][-1]["scores"] == record["result"]["scores"]
    first = record["moves"][0]
    assert first["move"]["move"] == "place"  # the log's notation, and the game's words for it
    assert first["description"] == "puts a brigand on se"  # the log's words
    assert first["description_texts"]["en"] == "puts a brigand on SE"  # the page's
    assert first["description_texts"]["ro"].startswith("pune ")
    [deserto] = service.tally()
    assert deserto["game"] == "deserto" and deserto["lowest_wins"] is False
    tally = {row["name"]: row for row in deserto["players"]}
    winners = [["Ana", "Bogdan"][seat] for seat in ended["winners"]]
    assert all(tally[name]["wins"] == 1 for name in winners)
    assert sum(row["matches"] for row in tally.values()) == 2


def test_the_tally_knows_who_wins_and_skips_a_match_ended_before_any_move(
    store: MatchStore,
) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    service.end_match()  # abandoned: 0-0, no move
    assert service.history()[0]["moves"] == 0
    assert service.tally() == []
    assert lowest_won({0: 3, 1: 40, 2: 12}, [0]) is True  # UNO, house scoring
    assert lowest_won({0: 3, 1: 40}, [1]) is False
    assert lowest_won({0: 0, 1: 0}, []) is None


def test_ending_a_match_early_keeps_it_with_its_scores_so_far(store: MatchStore) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    play_until_flagged(service)
    service.end_match()
    assert service.snapshot()["status"] == "waiting"
    [ended] = service.history()
    assert ended["final"] is False and ended["moves"] == 8
    with pytest.raises(ControlError, match="no match"):
        service.undo()


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"game": "chess", "seats": ["A", "B"]}, "unknown game"),
        ({"game": "deserto", "seats": ["Ana"]}, "2 to 4 players"),
        ({"game": "deserto", "seats": ["Ana", "Ana"]}, "same name"),
        ({"game": "deserto", "seats": ["A", "B"], "options": {"nope": 1}}, "unknown option"),
        ({"game": "deserto", "seats": "Ana,Bogdan"}, "seats"),
    ],
)
def test_a_bad_match_setup_is_refused_and_changes_nothing(
    store: MatchStore, header: dict[str, object], message: str
) -> None:
    service = make_service(store)
    with pytest.raises(ControlError, match=message):
        service.start_match(header)  # type: ignore[arg-type]
    assert store.matches() == [] and service.snapshot()["status"] == "waiting"


def test_the_pin_is_kept_as_a_salted_hash_and_checked(store: MatchStore) -> None:
    service = make_service(store)
    assert not service.pin_is_set() and not service.check_pin("1234")
    with pytest.raises(ControlError, match="4 to 8 digits"):
        service.set_pin("12a4")
    service.set_pin("2468")
    assert service.pin_is_set() and service.check_pin("2468")
    assert not service.check_pin("2469") and not service.check_pin("")
    assert "2468" not in (store.setting("admin_pin") or "")
    assert service.secret_key() == make_service(store).secret_key()


def test_card_images_come_from_the_deck_art(store: MatchStore) -> None:
    service = make_service(store)
    png = service.card_image("deserto", "vizier")
    assert png is not None and png.startswith(b"\x89PNG")
    assert service.card_image("deserto", "king") is None
    assert service.card_image("chess", "king") is None
    assert service.photo("m99-1") is None and service.photo("../etc") is None


def test_presses_from_the_page_need_a_match_and_a_real_seat(store: MatchStore) -> None:
    service = make_service(store)
    with pytest.raises(ControlError, match="no match"):
        service.press(0, "hold")
    service.start_match(HEADER)
    with pytest.raises(ControlError, match="no seat 5"):
        service.press(5, "hold")
    with pytest.raises(ControlError, match="pressed, held or double-pressed"):
        service.press(0, "smash")
    service.press(0, "hold")  # Ana claims to be stuck on an empty square: flagged
    assert service.snapshot()["flagged"]["rules"] == ["DES-STUCK"]


def test_a_damaged_log_is_not_resumed_nor_lost_and_says_why(store: MatchStore) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    play_until_flagged(service)
    match_id = service.snapshot()["match_id"]
    store._db.execute(  # noqa: SLF001 - damage the log as a bad disk or an old version might
        "UPDATE moves SET move = ? WHERE match_id = ? AND position = 3",
        ('{"seat": 0, "move": "fly"}', match_id),
    )
    again = make_service(store)
    with pytest.raises(ControlError, match=f"match {match_id} cannot be resumed.*'fly'"):
        again.resume()
    assert again.snapshot()["status"] == "waiting"
    assert len(store.moves(match_id)) == 8  # nothing dropped: a person can look at it
    store.finish_match(match_id, {"final": False, "scores": {}, "winners": []})
    [summary] = again.history()
    assert summary["id"] == match_id
    with pytest.raises(ControlError, match="cannot be shown past move 3"):
        again.match_record(match_id)


def test_run_goes_on_waiting_for_the_page_when_the_log_cannot_be_resumed(
    store: MatchStore, capsys: pytest.CaptureFixture[str]
) -> None:
    service = make_service(store)
    service.start_match(HEADER)
    store._db.execute(  # noqa: SLF001 - a log written by a newer version, say
        "UPDATE matches SET header = ?", ('{"game": "bridge", "seats": ["A", "B"]}',)
    )
    again = make_service(store)
    start_or_resume(again, None)
    assert "cannot be resumed" in capsys.readouterr().out
    assert "unknown game 'bridge'" in again.snapshot()["message"]
    again.start_match(HEADER)  # the page can start a new match
    assert again.snapshot()["status"] == "playing"


def test_more_seats_than_buttons_start_and_the_extra_seats_press_on_the_page(
    store: MatchStore,
) -> None:
    service = make_service(store)  # a panel with two seats, one of them with a button
    names = ["Ana", "Bogdan", "Carmen", "Dan", "Elena", "Florin", "Gabi"]
    service.start_match({"game": "uno", "seats": names, "first": 6})
    seats = service.snapshot()["seats"]
    assert [seat["button"] for seat in seats] == [True] + [False] * 6


def test_a_match_that_cannot_start_is_ended_at_once_and_says_why(
    store: MatchStore, tmp_path: Path
) -> None:
    mat = MatSpec.from_json(read_session_metadata(SESSION)["mat"])
    service = TableService(store, SimulatedPanel(2), mat, buttons=2,
                           deck_photos=tmp_path / "no-such-folder")
    with pytest.raises(ControlError, match="could not start: .*no such folder of deck photos"):
        service.start_match(HEADER)
    [failed] = store.matches()
    assert failed.finished and store.events(failed.id)[-1]["action"] == "failed"
    assert service.snapshot()["status"] == "waiting" and store.unfinished_match() is None
