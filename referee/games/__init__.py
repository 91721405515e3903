"""The games tableref referees, one package each, all behind `referee.core.Game`.

Adding a game means adding its package and one line to `GAMES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core import Game, RefereeError
from referee.games.deserto import Deserto
from referee.games.kanaloa import Kanaloa
from referee.games.remi import Remi
from referee.games.tempus import Tempus
from referee.games.uno import Uno

GAMES: dict[str, Callable[[], Game[Any]]] = {
    "deserto": Deserto,
    "kanaloa": Kanaloa,
    "remi": Remi,
    "tempus": Tempus,
    "uno": Uno,
}


def get_game(name: str) -> Game[Any]:
    """The game called `name`; RefereeError names the games there are otherwise."""
    try:
        factory = GAMES[name]
    except KeyError:
        raise RefereeError(
            f"unknown game {name!r}; tableref knows: {', '.join(sorted(GAMES))}"
        ) from None
    return factory()
