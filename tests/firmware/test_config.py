"""The config file: every key optional, flags override it, mistakes named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import ConfigError, TableConfig, load_config


def test_a_config_file_sets_the_table_and_flags_override_it(tmp_path: Path) -> None:
    path = tmp_path / "tableref.toml"
    path.write_text('data = "/var/lib/tableref"\nport = 8080\nadmin_pin = "2468"\n'
                    'camera = 0\npublic_url = "http://tableref.local:8080/"\n')
    config = load_config(path)
    assert config == TableConfig(data=Path("/var/lib/tableref"), port=8080, admin_pin="2468",
                                 camera="0", public_url="http://tableref.local:8080/")
    assert config.but(port=9000, data=None).port == 9000
    assert config.but(port=9000, data=None).data == Path("/var/lib/tableref")


def test_without_a_file_the_defaults_hold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_config(None) == TableConfig()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("port = 80\nport = 81\n", "not valid TOML"),
        ("colour = 1\n", "unknown key 'colour'"),
        ('port = "8000"\n', "port must be int"),
        ("admin_pin = 2468\n", "admin_pin must be str"),
        ("port = 70000\n", "port must be 0 to 65535"),
    ],
)
def test_a_bad_config_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tableref.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_the_cli_reports_a_bad_config_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tableref.toml"
    path.write_text("colour = 1\n")
    assert main(["run", "--config", str(path), "--pins", "mock"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "unknown key 'colour'" in error
    assert main(["demo", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read the config" in capsys.readouterr().err
