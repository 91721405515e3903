"""Choosing the GPIO backend: one clear line when it is missing or cannot open the pins,
on any machine (the Pi's modules are replaced in sys.modules, never needed)."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from firmware.cli import main
from hardware.panel import PinsError, make_pin_factory

BACKEND_MODULES = {"lgpio": ("lgpio", "gpiozero.pins.lgpio"),
                   "rpigpio": ("RPi", "RPi.GPIO", "gpiozero.pins.rpigpio")}


def without_backend(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """As on a machine without the Pi extra: importing the backend's module fails."""
    for module in BACKEND_MODULES[name]:
        monkeypatch.setitem(sys.modules, module, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "package"), [("lgpio", "python3-lgpio"),
                                               ("rpigpio", "python3-rpi-lgpio")])
def test_a_missing_backend_names_the_package_to_install(
    monkeypatch: pytest.MonkeyPatch, name: str, package: str
) -> None:
    without_backend(monkeypatch, name)
    with pytest.raises(PinsError, match=f"the {name} GPIO backend is not installed") as error:
        make_pin_factory(name)
    assert f"sudo apt install {package}" in str(error.value)
    assert "\n" not in str(error.value)


def test_a_backend_that_cannot_open_the_chip_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = types.ModuleType("lgpio")

    def refuse(chip: int) -> int:
        raise OSError("can not open gpiochip\n(no such device)")

    fake.gpiochip_open = refuse  # type: ignore[attr-defined]
    fake.__getattr__ = lambda constant: 0  # type: ignore[method-assign]  # lgpio's constants
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    # Set, then removed: gpiozero's module is imported afresh on the fake, and undoing
    # both forgets that import again.
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # type: ignore[arg-type]
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio")
    with pytest.raises(PinsError, match="cannot open the pins") as error:
        make_pin_factory("lgpio")
    assert "gpio group" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("name", ["lgpio", "rpigpio"])
def test_run_without_the_pi_extra_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    name: str,
) -> None:
    without_backend(monkeypatch, name)
    code = main(["run", "--pins", name, "--camera", str(tmp_path / "none.avi"),
                 "--data", str(tmp_path), "--port", "0", "--host", "127.0.0.1"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"tableref: error: the {name} GPIO backend is not installed")


def test_the_backend_from_the_config_file_is_the_one_used(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    without_backend(monkeypatch, "rpigpio")
    config = tmp_path / "tableref.toml"
    config.write_text('pins = "rpigpio"\nseat_pins = [[4, 17]]\n')
    assert main(["run", "--config", str(config), "--camera", str(tmp_path / "none.avi"),
                 "--data", str(tmp_path), "--port", "0"]) == 2
    assert "the rpigpio GPIO backend is not installed" in capsys.readouterr().err
