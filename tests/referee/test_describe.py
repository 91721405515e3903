"""`Game.describe`: each move of a log as a player would say it, for the history page.

The sentence follows the seat's name on the page, so it never names the mover; it is read
from the move alone, reads wholly in every language, and never fails for a move the
notation accepts (the page must show any log it can read).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core import Game, Move, RefereeError
from referee.games import GAMES, get_game
from referee.notation import parse_move, read_log
from referee.text import LANGUAGES, Text, catalogue, translate, untranslated

LOGS = Path(__file__).parents[1] / "fixtures" / "referee"
FOREIGN = [language for language in LANGUAGES if language != "en"]
SEATS = 4


def described(game: str, line: dict[str, Any]) -> Text:
    """What the history page says of a log's line (seat 0 unless the line says)."""
    found = get_game(game)
    return found.describe(parse_move(found, {"seat": 0, **line}, SEATS))


#: (game, a log's line without its seat, what the page says after the seat's name).
ENGLISH = [
    ("deserto", {"move": "place", "cell": "nw", "card": "vizier"}, "puts a vizier on nw"),
    ("deserto", {"move": "place", "cell": "se", "card": "oasis"}, "puts an oasis on se"),
    ("deserto", {"move": "place", "cell": "sw", "card": None}, "puts an unread card on sw"),
    ("deserto", {"move": "place", "cell": "off", "card": "brigand"},
     "puts a brigand beside the square"),
    ("deserto", {"move": "stuck"}, "cannot play and gives a card to the previous player"),
    ("tempus", {"move": "open", "series": "minus", "card": "red-5"},
     "opens a set on the '-' side with red-5"),
    ("tempus", {"move": "open", "series": "plus", "card": None},
     "opens a set on the '+' side with an unread card"),
    ("tempus", {"move": "capture", "set": 2, "card": "violet-7"},
     "captures set 2 with violet-7"),
    ("tempus", {"move": "capture", "set": 1, "card": None, "series": "plus"},
     "captures set 1 with an unread card, leaving it on '+'"),
    ("tempus", {"move": "feed", "set": 3, "card": None}, "slides a card under set 3"),
    ("tempus", {"move": "feed", "set": 1, "card": "joker-11"},
     "slides joker-11 under set 1"),
    ("tempus", {"move": "feed", "set": None, "card": None},
     "slides a card under an opponent's set"),
    ("tempus", {"move": "bury", "card": None}, "buries a card, holding all three sets"),
    ("tempus", {"move": "bury", "card": "red-25"}, "buries red-25, holding all three sets"),
    ("tempus", {"move": "count", "cards": 6}, "counts 6 cards won"),
    ("uno", {"move": "deal"}, "deals 7 cards each"),
    ("uno", {"move": "turn-up", "card": "red-3"}, "turns up red-3"),
    ("uno", {"move": "turn-up", "card": "wild", "colour": "blue"},
     "turns up wild, blue named"),
    ("uno", {"move": "turn-up", "card": "wild", "colour": None},
     "turns up wild, a colour named (not seen)"),
    ("uno", {"move": "play", "cards": ["red-7"]}, "plays red-7"),
    ("uno", {"move": "play", "cards": ["red-7", "red-7"]}, "plays red-7 and red-7"),
    ("uno", {"move": "play", "cards": ["wild"], "colour": "blue"}, "plays wild, blue named"),
    ("uno", {"move": "play", "cards": ["wild-draw4"], "colour": None},
     "plays wild-draw4, a colour named (not seen)"),
    ("uno", {"move": "play", "cards": ["red-0"], "swap": 2},
     "plays red-0, swaps hands with seat 2"),
    ("uno", {"move": "colour", "colour": "green"}, "names green for the wild"),
    ("uno", {"move": "draw", "count": 2}, "draws 2"),
    ("uno", {"move": "draw", "count": 1, "cards": ["yellow-1"]}, "draws 1, seen: yellow-1"),
    ("uno", {"move": "uno"}, "calls UNO"),
    ("uno", {"move": "catch", "target": 3}, "catches seat 3 without UNO"),
    ("uno", {"move": "challenge"}, "challenges the wild draw 4"),
    ("uno", {"move": "reveal", "cards": ["red-3", "blue-5"]}, "shows red-3, blue-5"),
    ("uno", {"move": "reveal", "cards": []}, "shows no card"),
    ("kanaloa", {"move": "ring", "cards": [f"ocean-{n}" for n in range(1, 11)]},
     "lays the ring of 10 ocean cards"),
    ("kanaloa", {"move": "deal"}, "deals 8 cards each"),
    ("kanaloa", {"move": "play", "card": "blue-7"}, "plays blue-7"),
    ("kanaloa", {"move": "play", "card": "kanaloa", "trump": "red"},
     "plays kanaloa, announcing red as trump"),
    ("kanaloa", {"move": "remove", "card": "ocean-4"}, "removes ocean-4 from the ring"),
    ("kanaloa", {"move": "dolphin", "step": True}, "takes the dolphin's step"),
    ("kanaloa", {"move": "dolphin", "step": False}, "lets the dolphin's step go"),
    ("kanaloa", {"move": "boat", "space": "ocean-4b"}, "has its boat seen on ocean-4b"),
    ("remi", {"move": "deal", "atu": "red-7"}, "deals the tiles, the atu red-7 turned up"),
    ("remi", {"move": "draw"}, "draws from the wall"),
    ("remi", {"move": "take", "at": 3}, "takes from the row at 3"),
    ("remi", {"move": "take", "at": 3, "tile": "blue-9"}, "takes blue-9 from the row at 3"),
    ("remi", {"move": "pe-tabla"}, "announces pe tablă"),
    ("remi", {"move": "lay", "melds": [["red-1", "red-2", "red-3"], ["blue-9", "joker",
                                                                      "black-9"]]},
     "lays out red-1, red-2, red-3; blue-9, joker, black-9"),
    ("remi", {"move": "add", "meld": 2, "tiles": ["red-4"]}, "lays red-4 off on meld 2"),
    ("remi", {"move": "swap", "meld": 1, "tiles": ["red-9", "yellow-9"]},
     "frees the joly of meld 1 with red-9, yellow-9"),
    ("remi", {"move": "discard", "tile": "joker"}, "discards joker"),
    ("remi", {"move": "atu"}, "shows the tile identical to the atu"),
    ("remi", {"move": "reveal", "tiles": ["red-1", "joker"]}, "shows their rack: red-1, joker"),
    ("remi", {"move": "reveal", "tiles": []}, "shows an empty rack"),
]


@pytest.mark.parametrize("game, line, english", ENGLISH,
                         ids=[f"{game}-{english}" for game, _, english in ENGLISH])
def test_each_kind_of_move_reads_as_a_player_says_it(
    game: str, line: dict[str, Any], english: str
) -> None:
    said = described(game, line)
    assert isinstance(said, Text) and said == english


def test_every_kind_of_move_of_every_game_is_pinned() -> None:
    pinned = {(game, line["move"]) for game, line, _ in ENGLISH}
    kinds = {(name, kind) for name in GAMES for kind in KINDS[name]}
    assert kinds == pinned


ROMANIAN = [
    ("deserto", {"move": "place", "cell": "nw", "card": "vizier"}, "pune un vizir pe NV"),
    ("deserto", {"move": "stuck"},
     "nu poate pune nicio carte și îi dă o carte jucătorului dinainte"),
    ("tempus", {"move": "open", "series": "minus", "card": "red-5"},
     "deschide un set pe partea „-” cu 5 roșu"),
    ("tempus", {"move": "feed", "set": 3, "card": None}, "strecoară o carte sub setul 3"),
    ("uno", {"move": "play", "cards": ["red-7", "red-7"]}, "joacă 7 roșu și 7 roșu"),
    ("uno", {"move": "play", "cards": ["wild"], "colour": "blue"},
     "joacă „Schimbă culoarea”, se alege albastru"),
    ("uno", {"move": "catch", "target": 3}, "îl prinde pe Dan fără UNO"),
    ("kanaloa", {"move": "play", "card": "octopus", "trump": "blue"},
     "joacă Caracatiță și anunță atu albastru"),
    ("remi", {"move": "add", "meld": 2, "tiles": ["black-4", "joker"]},
     "lipește 4 negru, joly la formația 2"),
]


@pytest.mark.parametrize("game, line, romanian", ROMANIAN,
                         ids=[f"{game}-{line['move']}" for game, line, _ in ROMANIAN])
def test_a_move_reads_in_romanian(game: str, line: dict[str, Any], romanian: str) -> None:
    names = ("Ana", "Bogdan", "Chiara", "Dan")
    assert translate(described(game, line), catalogue("ro"), names) == romanian


def test_a_move_reads_in_italian_spanish_and_portuguese() -> None:
    said = described("deserto", {"move": "place", "cell": "ne", "card": "brigand"})
    assert [translate(said, catalogue(language)) for language in ("it", "es", "pt")] == [
        "posa un brigante in NE", "pone un ladrón en NE", "põe um ladrão em NE",
    ]


# -- any move the notation accepts -----------------------------------------------------------

#: The kinds of move each game has, and some of them that it has not.
KINDS = {
    "deserto": ["place", "stuck"],
    "tempus": ["open", "capture", "feed", "bury", "count"],
    "uno": ["deal", "turn-up", "play", "colour", "draw", "uno", "catch", "challenge", "reveal"],
    "kanaloa": ["ring", "deal", "play", "remove", "dolphin", "boat"],
    "remi": ["deal", "draw", "take", "pe-tabla", "lay", "add", "swap", "discard", "atu",
             "reveal"],
}
OTHER_KINDS = ["pass", "undo", ""]

#: Values to try in each field a move of the game may have: good ones, and wrong ones.
VALUES: dict[str, dict[str, list[Any]]] = {
    "deserto": {
        "cell": ["nw", "ne", "sw", "se", "off", "north", None],
        "card": ["vizier", "brigand", "treasure", "oasis", None, "joker", 3],
        "face": ["up"],
    },
    "tempus": {
        "series": ["plus", "minus", None, "both"],
        "card": ["red-1", "violet-25", "joker-7", None, "series-plus", "red-26"],
        "set": [1, 2, 3, 4, 9, None, 0, True, "1"],
        "cards": [0, 12, 63, -1, None, "6"],
    },
    "uno": {
        "card": ["red-7", "wild", "wild-draw4", "green-skip", None, "blank"],
        "cards": [["red-7"], ["red-0", "red-0"], ["wild"], ["wild-draw4", "wild-draw4"],
                  ["blue-draw2", "wild"], [], ["red-10"], "red-7", None],
        "colour": ["red", "yellow", None, "purple"],
        "swap": [0, 3, -1, "2", None],
        "count": [1, 2, 4, 0, "1", None],
        "target": [0, 3, 9, None, False],
    },
    "kanaloa": {
        "cards": [["ocean-1", "ocean-2", "ocean-3"], ["ocean-2", "ocean-3", "ocean-4"],
                  ["ocean-1", "ocean-1", "ocean-2"], "ocean-1", None],
        "turned": [["ocean-2"], [], ["ocean-9"], None],
        "card": ["blue-1", "yellow-12", "kanaloa", "octopus", "ocean-3", "blue-13", None],
        "trump": ["red", "yellow", "violet", None],
        "step": [True, False, 1, None],
        "space": ["ocean-3a", "ocean-12b", "ocean-3", "ocean-13a", None],
    },
    "remi": {
        "atu": ["red-7", "joker", "green-3", None],
        "tile": ["black-13", "joker", "red-14", None],
        "at": [0, 5, -1, "2", None],
        "meld": [1, 0, -3, None],
        "tiles": [["red-1"], [], ["red-5", "joker"], ["blue-0"], "red-1", None],
        "melds": [[["red-1", "red-2", "red-3"]], [], [["joker"], ["red-4"]], [[]], None],
    },
}


def accepted(name: str) -> Iterator[Move]:
    """Every move of up to three fields from `VALUES` that the game's notation accepts."""
    game = get_game(name)
    values = VALUES[name]
    for kind in [*KINDS[name], *OTHER_KINDS]:
        for size in range(4):
            for names in itertools.combinations(sorted(values), size):
                for chosen in itertools.product(*(values[field] for field in names)):
                    try:
                        yield game.parse_move(1, kind, dict(zip(names, chosen, strict=True)))
                    except RefereeError:
                        continue


@pytest.mark.parametrize("name", sorted(GAMES))
def test_any_move_the_notation_accepts_reads_in_every_language(name: str) -> None:
    game: Game[Any] = get_game(name)
    moves = list(accepted(name))
    assert {move.kind for move in moves} == set(KINDS[name])
    sentences: dict[str, Move] = {}
    for move in moves:
        said = game.describe(move)
        assert isinstance(said, Text) and said, move
        for language in FOREIGN:
            assert untranslated(said, catalogue(language)) == [], (language, move)
        sentences.setdefault(str(said), move)
    assert len(sentences) > len(KINDS[name])


EXAMPLE_LOGS = sorted(path for path in LOGS.glob("*/*.jsonl") if path.stem != "malformed")


@pytest.mark.parametrize("log", EXAMPLE_LOGS, ids=lambda path: f"{path.parent.name}-{path.stem}")
def test_the_moves_of_the_example_logs_read_in_every_language(log: Path) -> None:
    read = read_log(log.read_text(encoding="utf-8").splitlines())
    for _, move in read.moves:
        said = read.game.describe(move)
        for language in FOREIGN:
            assert untranslated(said, catalogue(language)) == [], (language, move)
