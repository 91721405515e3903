"""UNO: the cards and the state (`state`), what the referee knows of hidden hands
(`hands`), the rules (`rules`, each kind of move judged in `judging`), the discard pile
and the buttons read (`table`), a move in words (`words`) and what the page may enter
(`page`)."""

from referee.games.uno.rules import Uno
from referee.games.uno.state import COLOURS, WILDS, UnoState
from referee.games.uno.table import BACK, UnoTable

__all__ = ["BACK", "COLOURS", "WILDS", "Uno", "UnoState", "UnoTable"]
