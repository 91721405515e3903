"""scripts/pi/install and uninstall against a fake root: the files they write, the
commands they would run (printed, never run, in a fake root), and the systemd unit
checked by systemd-analyze."""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from firmware.config import load_config

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "scripts/pi/install"
UNINSTALL = ROOT / "scripts/pi/uninstall"
UNIT = ROOT / "scripts/pi/tableref.service"
SYSTEM_UNITS = Path("/lib/systemd/system")


def script(
    path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(path), *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})


def would_run(output: str) -> list[str]:
    return [line.removeprefix("would run: ") for line in output.splitlines()
            if line.startswith("would run: ")]


def unit_settings(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    return parser


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    done = script(INSTALL, "--root", str(tmp_path), "--hotspot", "Table 7",
                  "--hotspot-password", "cards-on-the-table")
    assert done.returncode == 0, done.stderr
    return tmp_path, done


def test_the_install_writes_config_unit_avahi_and_hotspot_under_the_root(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = installed
    written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert written == [
        "etc/NetworkManager/system-connections/tableref-hotspot.nmconnection",
        "etc/avahi/services/tableref.service",
        "etc/systemd/system/tableref.service",
        "etc/tableref/tableref.toml",
    ]
    config = load_config(root / "etc/tableref/tableref.toml")
    assert (str(config.data), config.host, config.port, config.camera, config.pins) == (
        "/var/lib/tableref", "0.0.0.0", 8000, "picamera", "lgpio")
    assert (root / "etc/systemd/system/tableref.service").read_text() == UNIT.read_text()
    service = ElementTree.parse(root / "etc/avahi/services/tableref.service").getroot()
    assert service.findtext("service/type") == "_http._tcp"
    assert service.findtext("service/port") == "8000"


def test_the_hotspot_is_a_fallback_access_point_only_root_can_read(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, done = installed
    path = root / "etc/NetworkManager/system-connections/tableref-hotspot.nmconnection"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # NetworkManager ignores it otherwise
    hotspot = configparser.ConfigParser(interpolation=None)
    hotspot.read(path)
    assert hotspot["wifi"]["mode"] == "ap" and hotspot["wifi"]["ssid"] == "Table 7"
    assert hotspot["wifi-security"]["psk"] == "cards-on-the-table"
    assert hotspot["ipv4"]["method"] == "shared"
    assert int(hotspot["connection"]["autoconnect-priority"]) < 0  # known Wi-Fi first
    assert "nmcli connection reload" in would_run(done.stdout)


def test_in_a_fake_root_every_system_command_is_printed_not_run(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, done = installed
    commands = would_run(done.stdout)
    assert ("apt-get install -y python3-picamera2 python3-lgpio python3-venv python3-pip "
            "avahi-daemon") in commands
    assert ("useradd --system --user-group --groups gpio,video --home-dir /var/lib/tableref "
            "--no-create-home --shell /usr/sbin/nologin tableref") in commands
    assert "python3 -m venv --system-site-packages /opt/tableref/venv" in commands
    assert f"/opt/tableref/venv/bin/pip install --upgrade {ROOT}[pi]" in commands
    warm = ("env NUMBA_CACHE_DIR=/var/cache/tableref/numba /opt/tableref/venv/bin/python "
            "-m firmware.warmup --data /var/lib/tableref")
    assert warm in commands
    assert commands.index(warm) < commands.index("systemctl enable --now tableref.service")
    assert "hostnamectl set-hostname tableref" in commands


def test_the_unit_reads_the_kernels_where_the_install_compiled_them() -> None:
    service = unit_settings(UNIT)["Service"]
    assert service["User"] == "tableref"
    assert service["SupplementaryGroups"] == "gpio video"
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "tableref" and service["CacheDirectory"] == "tableref"
    assert "Environment=NUMBA_CACHE_DIR=/var/cache/tableref/numba" in UNIT.read_text()
    assert service["ProtectSystem"] == "strict" and service["NoNewPrivileges"] == "true"
    assert "PrivateDevices" not in service  # it would hide the camera and the GPIO chip
    assert service["ExecStart"] == (
        "/opt/tableref/venv/bin/tableref run --config /etc/tableref/tableref.toml")


def test_systemd_analyze_verifies_the_installed_unit(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None or not SYSTEM_UNITS.is_dir():
        pytest.skip("systemd-analyze is not installed (scripts/dev test installs it as root)")
    root, _ = installed
    # What verify needs besides the unit: systemd's own units and the program it starts.
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    program = root / "opt/tableref/venv/bin/tableref"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    done = subprocess.run([analyze, "verify", "--man=no", f"--root={root}",
                           "/etc/systemd/system/tableref.service"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_config_only_the_service_reads_carries_the_hotspot_for_its_qr_code(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, done = installed
    path = root / "etc/tableref/tableref.toml"
    config = load_config(path)
    assert (config.hotspot_ssid, config.hotspot_password) == ("Table 7", "cards-on-the-table")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "chgrp tableref /etc/tableref/tableref.toml" in would_run(done.stdout)


def test_a_hotspot_added_later_is_set_in_the_config_already_there(tmp_path: Path) -> None:
    config = tmp_path / "etc/tableref/tableref.toml"
    config.parent.mkdir(parents=True)
    config.write_text('admin_pin = "2468"\nhotspot_ssid = "Old"\n')
    done = script(INSTALL, "--root", str(tmp_path), "--hotspot", 'Table "7"',
                  "--hotspot-password", "back\\slash;pw")
    assert done.returncode == 0, done.stderr
    found = load_config(config)
    assert found.admin_pin == "2468"
    assert (found.hotspot_ssid, found.hotspot_password) == ('Table "7"', "back\\slash;pw")


def test_a_config_already_there_is_kept(tmp_path: Path) -> None:
    config = tmp_path / "etc/tableref/tableref.toml"
    config.parent.mkdir(parents=True)
    config.write_text('admin_pin = "2468"\n')
    done = script(INSTALL, env={"TABLEREF_ROOT": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "kept /etc/tableref/tableref.toml as it is" in done.stdout
    assert config.read_text() == 'admin_pin = "2468"\n'


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    done = script(INSTALL, "--root", str(tmp_path), "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "would write /etc/systemd/system/tableref.service" in done.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "says"), [
    (["--pins", "gpio"], "--pins is lgpio or rpigpio"),
    (["--hotspot", "Table"], "--hotspot needs --hotspot-password of 8 to 63 characters"),
    (["--port", "80a"], "--port is a number"),
])
def test_a_wrong_option_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], says: str
) -> None:
    done = script(INSTALL, "--root", str(tmp_path), *args)
    assert done.returncode == 2 and says in done.stderr and list(tmp_path.iterdir()) == []


def test_rpigpio_installs_the_rpi_gpio_shim_on_lgpio(tmp_path: Path) -> None:
    done = script(INSTALL, "--root", str(tmp_path), "--pins", "rpigpio", "--keep-hostname")
    commands = would_run(done.stdout)
    assert any("python3-rpi-lgpio" in command for command in commands)
    assert not any(command.startswith("hostnamectl") for command in commands)
    assert load_config(tmp_path / "etc/tableref/tableref.toml").pins == "rpigpio"


def test_uninstall_keeps_the_data_unless_purged(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = installed
    log = root / "var/lib/tableref/tableref.sqlite"
    log.parent.mkdir(parents=True)
    log.write_bytes(b"every match")
    (root / "opt/tableref/venv").mkdir(parents=True)
    kept = script(UNINSTALL, "--root", str(root))
    assert kept.returncode == 0, kept.stderr
    assert "systemctl disable --now tableref.service" in would_run(kept.stdout)
    assert log.read_bytes() == b"every match"
    assert (root / "etc/tableref/tableref.toml").is_file()
    assert not (root / "etc/systemd/system/tableref.service").exists()
    assert not (root / "etc/avahi/services/tableref.service").exists()
    assert not (root / "opt/tableref").exists()

    purged = script(UNINSTALL, "--root", str(root), "--purge")
    assert purged.returncode == 0, purged.stderr
    assert not log.parent.exists() and not (root / "etc/tableref").exists()
    assert "userdel tableref" in would_run(purged.stdout)
