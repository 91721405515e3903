"""The table's config file: where the data lives, the page's address, the admin PIN.

A Pi at a table is set up once; its settings live in a TOML file (`tableref run
--config /etc/tableref.toml`, else `tableref.toml` in the working folder if there is
one). Command-line flags override it. Every key is optional:

    data = "/var/lib/tableref"      # folder of tableref.sqlite (default: data)
    host = "0.0.0.0"                # where the page listens (default: 0.0.0.0)
    port = 8000
    public_url = "http://tableref.local:8000/"   # for the QR code (default: the LAN address)
    admin_pin = "2468"              # 4-8 digits; without it the page's first run sets one
    camera = "picamera"             # or a webcam number, or a video file
    pins = "lgpio"                  # GPIO backend: lgpio, rpigpio, mock
    deck_photos = "/home/pi/my-deck"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

DEFAULT_FILE = Path("tableref.toml")


class ConfigError(Exception):
    """A config file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class TableConfig:
    data: Path = Path("data")
    host: str = "0.0.0.0"
    port: int = 8000
    public_url: str | None = None
    admin_pin: str | None = None
    camera: str = "picamera"
    pins: str = "mock"
    deck_photos: Path | None = None

    def but(self, **overrides: Any) -> TableConfig:
        """This config with the flags that were given (not None) in place of its values."""
        given = {name: value for name, value in overrides.items() if value is not None}
        return TableConfig(**{**self.__dict__, **given})


KINDS: dict[str, tuple[type, ...]] = {
    "data": (str,), "host": (str,), "port": (int,), "public_url": (str,), "admin_pin": (str,),
    "camera": (str, int), "pins": (str,), "deck_photos": (str,),
}


def load_config(path: Path | None) -> TableConfig:
    """The config in `path`, or in ./tableref.toml if `path` is None and it exists."""
    if path is None:
        if not DEFAULT_FILE.is_file():
            return TableConfig()
        path = DEFAULT_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the config ({error.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    known = {item.name for item in fields(TableConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r}; known: {', '.join(sorted(known))}")
    for name, value in data.items():
        if not isinstance(value, KINDS[name]) or isinstance(value, bool):
            raise ConfigError(f"{path}: {name} must be {KINDS[name][0].__name__}, not {value!r}")
    values: dict[str, Any] = dict(data)
    for name in ("data", "deck_photos"):
        if name in values:
            values[name] = Path(values[name])
    if "camera" in values:
        values["camera"] = str(values["camera"])
    if not 0 <= values.get("port", 0) <= 65535:
        raise ConfigError(f"{path}: port must be 0 to 65535")
    return TableConfig(**values)
