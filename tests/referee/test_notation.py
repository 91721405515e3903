"""The match log notation: reading, writing, replaying, and every malformed line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.core import Header, Match, Move, RefereeError
from referee.games.deserto import Deserto
from referee.notation import NotationError, read_log, replay, write_log

FIXTURES = Path(__file__).parent.parent / "fixtures" / "referee" / "deserto"
HEADER = '{"game": "deserto", "seats": ["Ana", "Bogdan"]}'


def fixture(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines()


def place(seat: int, cell: str, card: str | None) -> Move:
    return Move(seat, "place", {"cell": cell, "card": card})


# -- reading and writing ------------------------------------------------------------------


def test_read_log_gives_the_header_with_defaults_and_each_move_with_its_line() -> None:
    log = read_log(
        [
            HEADER,
            '{"seat": 0, "move": "place", "cell": "nw", "card": "oasis"}',
            '{"seat": 1, "move": "stuck"}',
        ]
    )
    assert log.game.name == "deserto"
    assert log.header.seats == ("Ana", "Bogdan")
    assert log.header.first == 0
    assert log.header.options["direction"] == "clockwise"
    assert log.moves == ((2, place(0, "nw", "oasis")), (3, Move(1, "stuck")))


def test_comments_and_blank_lines_are_skipped_but_counted() -> None:
    log = read_log(
        [
            "# a Deserto match",
            "",
            HEADER,
            "   ",
            "  # indented comment",
            '{"seat": 0, "move": "place", "cell": "nw", "card": "oasis"}',
        ]
    )
    assert [line for line, _ in log.moves] == [6]


def test_a_null_card_is_read_as_none() -> None:
    log = read_log([HEADER, '{"seat": 0, "move": "place", "cell": "se", "card": null}'])
    assert log.moves[0][1] == place(0, "se", None)


def test_write_log_then_read_log_gives_the_same_match() -> None:
    header = Header("deserto", ("Ana", "Bogdan", "Chiara"), 2, {"direction": "counterclockwise"})
    match: Match[Any] = Match(Deserto(), header)
    for move in [
        place(2, "nw", "vizier"),
        place(1, "ne", "vizier"),
        Move(0, "stuck"),
        place(2, "sw", None),
        place(1, "off", "brigand"),
    ]:
        match.play(move)
    lines = write_log(match)
    assert json.loads(lines[0]) == {
        "game": "deserto",
        "seats": ["Ana", "Bogdan", "Chiara"],
        "first": 2,
        "options": {
            "direction": "counterclockwise",
            "placed_card_stays": True,
            "stuck_draws_back": True,
            "square_at_end": "nobody",
        },
    }
    assert json.loads(lines[3]) == {"seat": 0, "move": "stuck"}
    log = read_log(lines)
    assert log.header == match.header
    assert [move for _, move in log.moves] == match.moves
    again = replay(log)
    assert again.state == match.state
    assert [r.verdict for r in again.rulings] == [r.verdict for r in match.rulings]
    assert write_log(again) == lines


@pytest.mark.parametrize("name", ["opening.jsonl", "flagged.jsonl", "four_viziers.jsonl"])
def test_the_example_logs_round_trip(name: str) -> None:
    log = read_log(fixture(name), expected_game="deserto")
    rewritten = write_log(replay(log))
    assert [move for _, move in read_log(rewritten).moves] == [move for _, move in log.moves]
    assert read_log(rewritten).header == log.header


# -- the example logs replayed ---------------------------------------------------------------


def transcript(name: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    match = replay(read_log(fixture(name), expected_game="deserto"))
    return [ruling.to_json() for ruling in match.rulings], match.result()


def test_the_opening_is_legal_throughout() -> None:
    rulings, result = transcript("opening.jsonl")
    assert [r["ok"] for r in rulings] == [True] * 9
    assert all(r["rules"] == [] for r in rulings)
    assert rulings[0]["message"] == ""  # a plain move: the move says it all
    assert rulings[4]["message"] == "and captures 1 card"
    assert rulings[6]["message"] == "and captures 2 cards"
    assert rulings[7]["message"] == "(seat 0)"
    assert rulings[8]["severity"] == "warning"
    assert all("severity" not in r for r in rulings[:8])
    assert result == {"final": False, "scores": {"0": 4, "1": 0}, "winners": []}


def test_the_flagged_log_names_each_broken_rule() -> None:
    rulings, result = transcript("flagged.jsonl")
    assert [(r["seat"], r["ok"], r["rules"]) for r in rulings] == [
        (1, True, []),
        (0, False, ["DES-NO-BRIGAND-BY-VIZIER"]),
        (2, False, ["DES-NO-TREASURE-BY-BRIGAND"]),
        (1, False, ["DES-STACK-FULL"]),
        (2, False, ["TURN-ORDER"]),
        (1, False, ["DES-FORM"]),
        (0, False, ["DES-NO-SAME-ON-SAME"]),
        (2, True, []),
    ]
    assert result == {"final": False, "scores": {"0": 2, "1": 0, "2": 0}, "winners": []}


def test_the_four_viziers_log() -> None:
    rulings, result = transcript("four_viziers.jsonl")
    assert all(r["ok"] for r in rulings)
    assert rulings[-1]["message"] == "and wins the square with four viziers (5 cards)"
    assert result["scores"] == {"0": 5, "1": 0}


def test_the_malformed_log_names_its_line() -> None:
    with pytest.raises(NotationError) as caught:
        read_log(fixture("malformed.jsonl"))
    assert caught.value.line == 6
    assert str(caught.value) == "line 6: cell must be one of nw, ne, sw, se or off, not 'north'"


# -- malformed logs ------------------------------------------------------------------------

MOVE = '{"seat": 0, "move": "place", "cell": "nw", "card": "oasis"}'

ERRORS = [
    # (id, lines, expected_game, line, problem)
    ("invalid-json", [HEADER, '{"seat": 0, "move": "place",'], None, 2, "not valid JSON ("),
    ("invalid-json-header", ["{game: deserto}"], None, 1, "not valid JSON ("),
    ("list-line", [HEADER, "[0, 1]"], None, 2, "each line must be a JSON object"),
    ("string-header", ['"deserto"'], None, 1, "each line must be a JSON object"),
    ("no-game", ['{"seats": ["Ana", "Bogdan"]}'], None, 1, 'the header needs "game"'),
    ("no-seats", ['{"game": "deserto"}'], None, 1, 'the header needs "seats"'),
    ("seats-not-names", ['{"game": "deserto", "seats": [1, 2]}'], None, 1, 'needs "seats"'),
    (
        "first-not-a-number",
        ['{"game": "deserto", "seats": ["A", "B"], "first": "0"}'],
        None,
        1,
        '"first" must be a seat number',
    ),
    (
        "first-outside",
        ['{"game": "deserto", "seats": ["A", "B"], "first": 2}'],
        None,
        1,
        "first seat 2 is not one of the seats",
    ),
    (
        "options-not-object",
        ['{"game": "deserto", "seats": ["A", "B"], "options": []}'],
        None,
        1,
        '"options" must be an object',
    ),
    (
        "unknown-option",
        ['{"game": "deserto", "seats": ["A", "B"], "options": {"jokers": true}}'],
        None,
        1,
        "unknown option 'jokers' for deserto",
    ),
    (
        "bad-option-value",
        ['{"game": "deserto", "seats": ["A", "B"], "options": {"direction": "left"}}'],
        None,
        1,
        "option 'direction' must be one of 'clockwise', 'counterclockwise', not 'left'",
    ),
    (
        "too-few-seats",
        ['{"game": "deserto", "seats": ["Solo"]}'],
        None,
        1,
        "Deserto is for 2 to 4 players, not 1",
    ),
    (
        "unknown-game",
        ['{"game": "chess", "seats": ["A", "B"]}'],
        None,
        1,
        "unknown game 'chess'; tableref knows: deserto",
    ),
    ("game-mismatch", [HEADER], "uno", 1, "the log is a 'deserto' match, not 'uno'"),
    (
        "seat-too-high",
        [HEADER, '{"seat": 2, "move": "stuck"}'],
        None,
        2,
        '"seat" must be a seat number from 0 to 1, not 2',
    ),
    (
        "seat-name",
        [HEADER, '{"seat": "Ana", "move": "stuck"}'],
        None,
        2,
        "not 'Ana'",
    ),
    ("seat-bool", [HEADER, '{"seat": true, "move": "stuck"}'], None, 2, "not True"),
    ("seat-missing", [HEADER, '{"move": "stuck"}'], None, 2, "not None"),
    ("kind-missing", [HEADER, '{"seat": 0, "cell": "nw"}'], None, 2, 'a move needs "move"'),
    (
        "unknown-kind",
        [HEADER, '{"seat": 0, "move": "pass"}'],
        None,
        2,
        "unknown move 'pass'; Deserto has place and stuck",
    ),
    (
        "unknown-field",
        [HEADER, '{"seat": 0, "move": "place", "cell": "nw", "card": "oasis", "face": "up"}'],
        None,
        2,
        "a place move has no field 'face'",
    ),
    (
        "stuck-with-a-field",
        [HEADER, '{"seat": 0, "move": "stuck", "card": "oasis"}'],
        None,
        2,
        "a stuck move has no fields",
    ),
    (
        "bad-cell",
        [HEADER, MOVE, '{"seat": 1, "move": "place", "cell": "middle", "card": "oasis"}'],
        None,
        3,
        "cell must be one of nw, ne, sw, se or off, not 'middle'",
    ),
    (
        "missing-cell",
        [HEADER, '{"seat": 0, "move": "place", "card": "oasis"}'],
        None,
        2,
        "cell must be one of nw, ne, sw, se or off, not None",
    ),
    (
        "bad-card",
        [HEADER, '{"seat": 0, "move": "place", "cell": "nw", "card": "joker"}'],
        None,
        2,
        "card must be one of vizier, brigand, treasure, oasis or null, not 'joker'",
    ),
    (
        "card-in-capitals",
        [HEADER, '{"seat": 0, "move": "place", "cell": "nw", "card": "Vizier"}'],
        None,
        2,
        "not 'Vizier'",
    ),
    ("empty", [], None, 1, "the log is empty: it needs a header line"),
    ("only-comments", ["# nothing yet", "", "# still nothing"], None, 3, "the log is empty"),
]


@pytest.mark.parametrize(
    ("lines", "expected_game", "line", "problem"),
    [case[1:] for case in ERRORS],
    ids=[case[0] for case in ERRORS],
)
def test_a_malformed_log_names_the_line_and_the_problem(
    lines: list[str], expected_game: str | None, line: int, problem: str
) -> None:
    with pytest.raises(NotationError) as caught:
        read_log(lines, expected_game=expected_game)
    error = caught.value
    assert error.line == line
    assert problem in error.problem
    assert str(error) == f"line {line}: {error.problem}"
    assert isinstance(error, RefereeError)


def test_the_first_problem_wins() -> None:
    lines = [HEADER, "not json", '{"seat": 9, "move": "stuck"}']
    with pytest.raises(NotationError, match="^line 2: not valid JSON"):
        read_log(lines)


def test_a_log_with_only_a_header_is_a_match_with_no_moves() -> None:
    log = read_log([HEADER])
    assert log.moves == ()
    assert replay(log).result() == {"final": False, "scores": {"0": 0, "1": 0}, "winners": []}


def test_expected_game_that_matches_is_fine() -> None:
    assert read_log([HEADER], expected_game="deserto").game.name == "deserto"


# -- docs/notation.md shows what tableref really does ------------------------------------------

NOTATION_DOC = Path(__file__).parent.parent.parent / "docs" / "notation.md"


def test_the_documented_example_log_is_the_fixture() -> None:
    assert "\n".join(fixture("opening.jsonl")) in NOTATION_DOC.read_text(encoding="utf-8")


def test_the_documented_check_output_is_what_the_referee_says() -> None:
    rulings, result = transcript("flagged.jsonl")
    printed = "\n".join(json.dumps(line) for line in [*rulings, result])
    assert printed in NOTATION_DOC.read_text(encoding="utf-8")
