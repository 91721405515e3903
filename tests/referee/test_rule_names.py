"""Every rule a game's verdict can name has a name in words, in every language: the page
shows "Same card on same card" with the id small beside it, never the id alone."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from referee.core import TURN_RULE
from referee.games import GAMES, get_game
from referee.text import LANGUAGES, NEEDS_NO_WORDS, Text, catalogue, translate, untranslated


def _rule_ids(name: str) -> set[str]:
    """The rule ids written in the game's code (every breach names one of these)."""
    folder = Path(inspect.getfile(GAMES[name])).parent
    return {
        node.value
        for path in folder.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and NEEDS_NO_WORDS.fullmatch(node.value)
    } | {TURN_RULE}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_rule_a_game_can_name_has_words_in_every_language(name: str) -> None:
    game = get_game(name)
    rules = _rule_ids(name)
    assert len(rules) > 5
    unnamed = sorted(rule for rule in rules if not isinstance(game.rule_name(rule), Text))
    assert unnamed == []
    for language in LANGUAGES[1:]:  # English is the code's own
        words = catalogue(language)
        missing = {rule: untranslated(game.rule_name(rule), words) for rule in rules}
        assert {rule: left for rule, left in missing.items() if left} == {}, language
    said = {translate(game.rule_name(rule), catalogue("ro")) for rule in rules}
    assert len(said) == len(rules), "two rules of one game read the same"


def test_a_rule_without_a_name_reads_as_its_id() -> None:
    assert get_game("deserto").rule_name("XYZ-NEW") == "XYZ-NEW"
    assert translate(get_game("deserto").rule_name("DES-NO-SAME-ON-SAME"), catalogue("ro")) == (
        "Aceeași carte peste aceeași carte"
    )
