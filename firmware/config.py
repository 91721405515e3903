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
    seat_pins = [[4, 17], [27, 22]]   # BCM (button, LED) per seat (default: WIRING.md's six)
    status_led_pin = 16
    buzzer_pin = 18
    hotspot_ssid = "Tableref"       # the Pi's own Wi-Fi (scripts/pi/install --hotspot): while
    hotspot_password = "..."        # it runs, the page's first QR code joins it
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from hardware.panel import DEFAULT_PIN_MAP, MAX_SEATS, PinMap

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
    seat_pins: tuple[tuple[int, int], ...] = DEFAULT_PIN_MAP.seats
    status_led_pin: int = DEFAULT_PIN_MAP.status_led
    buzzer_pin: int = DEFAULT_PIN_MAP.buzzer
    hotspot_ssid: str | None = None
    hotspot_password: str | None = None

    @property
    def pin_map(self) -> PinMap:
        """The seat panel's pins (BCM numbers) as the config gives them."""
        return PinMap(self.seat_pins, self.status_led_pin, self.buzzer_pin)

    def but(self, **overrides: Any) -> TableConfig:
        """This config with the flags that were given (not None) in place of its values."""
        given = {name: value for name, value in overrides.items() if value is not None}
        return TableConfig(**{**self.__dict__, **given})


KINDS: dict[str, tuple[type, ...]] = {
    "data": (str,), "host": (str,), "port": (int,), "public_url": (str,), "admin_pin": (str,),
    "camera": (str, int), "pins": (str,), "deck_photos": (str,), "seat_pins": (list,),
    "status_led_pin": (int,), "buzzer_pin": (int,), "hotspot_ssid": (str,),
    "hotspot_password": (str,),
}
#: BCM numbers of the 40-pin header's GPIOs.
GPIO_NUMBERS = range(28)


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
    if "seat_pins" in values:
        values["seat_pins"] = seat_pins(path, values["seat_pins"])
    for name in ("status_led_pin", "buzzer_pin"):
        if values.get(name, 0) not in GPIO_NUMBERS:
            raise ConfigError(f"{path}: {name} must be a BCM GPIO number, 0 to 27")
    return TableConfig(**values)


def seat_pins(path: Path, value: list[Any]) -> tuple[tuple[int, int], ...]:
    """`seat_pins = [[button, LED], ...]` as a tuple of pairs of GPIO numbers."""
    pairs: list[tuple[int, int]] = []
    for pair in value:
        if (
            not isinstance(pair, list) or len(pair) != 2
            or not all(type(pin) is int and pin in GPIO_NUMBERS for pin in pair)
        ):
            raise ConfigError(
                f"{path}: seat_pins holds [button, LED] pairs of BCM GPIO numbers (0 to 27), "
                f"e.g. [[4, 17], [27, 22]], not {pair!r}"
            )
        pairs.append((pair[0], pair[1]))
    if not 1 <= len(pairs) <= MAX_SEATS:
        raise ConfigError(f"{path}: seat_pins has 1 to {MAX_SEATS} seats, not {len(pairs)}")
    return tuple(pairs)
