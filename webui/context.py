"""What every blueprint reaches through the app: the table's control, the rate limits,
the page's catalogues. Kept on the app (not in module globals) so two apps in one
process, as in the tests, share nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import current_app

from webui.control import TableControl
from webui.security import FailureLimiter, RateLimit

if TYPE_CHECKING:
    from webui.i18n import Catalogue

EXTENSION = "tableref"


@dataclass
class Site:
    """The state one app keeps besides the session cookie."""

    control: TableControl
    pin_failures: FailureLimiter
    presses: RateLimit
    catalogues: dict[str, Catalogue]


def site() -> Site:
    """The Site of the app handling the current request."""
    found: Site = current_app.extensions[EXTENSION]
    return found


def control() -> TableControl:
    return site().control
