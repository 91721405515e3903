"""The Flask app that the players' phones open: the live table, admin, history."""

from webui.app import create_app
from webui.control import ControlError, TableControl
from webui.feed import InMemoryFeed, LiveFeed
from webui.server import RunningServer, serve

__all__ = [
    "ControlError",
    "InMemoryFeed",
    "LiveFeed",
    "RunningServer",
    "TableControl",
    "create_app",
    "serve",
]
