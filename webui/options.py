"""A game's house options as the new-match form shows them: plain words in the page's
language, each choice named, options that go by the number of players grouped.

The words live in `webui/locales/*.json`, never in the games' own docs (which speak to
the developer: rule ids, "[INF]"):

    option.<game>.<name>            the question ("When a 0 is played")
    option.<game>.<name>.<value>    each choice ("every hand passes on"); a boolean's
                                    values are `true` and `false`; a number shows itself
    option.<game>.<family>          an option per number of players (`hand_size_3`):
                                    one question for the family, grouped by players
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from webui.i18n import Catalogue

#: `hand_size_3`: the hand size with 3 players.
PER_PLAYERS = re.compile(r"(?P<family>[a-z_]+?)_(?P<players>[0-9]+)")


def option_key(game: str, name: str) -> str:
    """The catalogue key of an option's question (a family's, for a per-players one)."""
    per = PER_PLAYERS.fullmatch(name)
    return f"option.{game}.{per['family'] if per else name}"


def choice_key(game: str, name: str, value: Any) -> str | None:
    """The key naming one choice; None for a number, which names itself."""
    if isinstance(value, bool):
        return f"{option_key(game, name)}.{json.dumps(value)}"
    if isinstance(value, str):
        return f"{option_key(game, name)}.{value}"
    return None


def form_options(game: Mapping[str, Any], words: Catalogue) -> dict[str, Any]:
    """{"plain": [option views], "by_players": [{"players": n, "options": [views]}]}, each
    view {name, label, choices: [{value, label, selected}]}, in the game's order."""
    plain: list[dict[str, Any]] = []
    grouped: dict[int, list[dict[str, Any]]] = {}
    for option in game.get("options") or []:
        if not option.get("choices"):
            continue
        view = _view(str(game["name"]), option, words)
        per = PER_PLAYERS.fullmatch(str(option["name"]))
        if per:
            grouped.setdefault(int(per["players"]), []).append(view)
        else:
            plain.append(view)
    return {
        "plain": plain,
        "by_players": [{"players": n, "options": grouped[n]} for n in sorted(grouped)],
    }


def _view(game: str, option: Mapping[str, Any], words: Catalogue) -> dict[str, Any]:
    name = str(option["name"])
    default = json.dumps(option.get("default"))
    return {
        "name": name,
        "label": words.say(option_key(game, name)),
        "choices": [_choice(game, name, value, default, words) for value in option["choices"]],
    }


def _choice(game: str, name: str, value: Any, default: str, words: Catalogue
            ) -> dict[str, Any]:
    key = choice_key(game, name, value)
    text = json.dumps(value)
    return {"value": value, "label": words.say(key) if key else str(value),
            "selected": text == default}


def every_key(games: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every key the form needs for `games` (tests check each language has them)."""
    keys: list[str] = []
    for game in games:
        for option in game.get("options") or []:
            name = str(option["name"])
            keys.append(option_key(str(game["name"]), name))
            keys += [k for v in option.get("choices") or []
                     if (k := choice_key(str(game["name"]), name, v))]
    return sorted(set(keys))
