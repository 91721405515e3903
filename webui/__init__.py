"""The Flask app that shows the table live on the players' phones."""

from webui.app import create_app
from webui.feed import InMemoryFeed, LiveFeed
from webui.server import RunningServer, serve

__all__ = ["InMemoryFeed", "LiveFeed", "RunningServer", "create_app", "serve"]
