"""The seat panel's pin map comes from the config file, checked when it is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.config import ConfigError, TableConfig, load_config
from hardware.panel import DEFAULT_PIN_MAP, PinMap


def config_with(tmp_path: Path, text: str) -> TableConfig:
    path = tmp_path / "tableref.toml"
    path.write_text(text)
    return load_config(path)


def test_without_pin_keys_the_panel_is_wired_as_wiring_md_says(tmp_path: Path) -> None:
    assert config_with(tmp_path, "").pin_map == DEFAULT_PIN_MAP


def test_the_pin_map_is_read_from_the_config(tmp_path: Path) -> None:
    config = config_with(
        tmp_path, "seat_pins = [[4, 17], [27, 22]]\nstatus_led_pin = 21\nbuzzer_pin = 20\n"
    )
    assert config.pin_map == PinMap(((4, 17), (27, 22)), 21, 20)


@pytest.mark.parametrize(("text", "says"), [
    ("seat_pins = [[4, 17, 2]]", "seat_pins holds \\[button, LED\\] pairs"),
    ("seat_pins = [[4, 40]]", "seat_pins holds \\[button, LED\\] pairs"),
    ("seat_pins = [[4, true]]", "seat_pins holds \\[button, LED\\] pairs"),
    ("seat_pins = []", "seat_pins has 1 to 6 seats"),
    ("seat_pins = 4", "seat_pins must be list"),
    ("buzzer_pin = 99", "buzzer_pin must be a BCM GPIO number"),
])
def test_a_bad_pin_map_names_the_key(tmp_path: Path, text: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        config_with(tmp_path, text)
