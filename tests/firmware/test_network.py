"""The address phones are given (printout and QR code) is one they can reach."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from firmware import commands
from firmware.config import TableConfig
from firmware.network import (
    ACTIVE_CONNECTIONS,
    HOTSPOT_RECHECK_S,
    HotspotWatch,
    hotspot_running,
    interface_addresses,
    lan_address,
)
from firmware.service import TableService
from firmware.store import MatchStore
from hardware.panel import SimulatedPanel
from vision.mat import default_mat
from webui.joining import qr_svg


def test_the_address_towards_the_lan_comes_first() -> None:
    assert lan_address(lambda: "192.168.1.20", lambda: ["10.42.0.1"]) == "192.168.1.20"


def test_a_hotspot_with_no_route_out_gives_its_wifi_address() -> None:
    assert lan_address(lambda: None, lambda: ["127.0.0.1", "10.42.0.1"]) == "10.42.0.1"


def test_with_no_network_at_all_the_mdns_name_never_loopback() -> None:
    found = lan_address(lambda: "127.0.0.1", lambda: ["127.0.0.1", "169.254.3.4"],
                        lambda: "tableref")
    assert found == "tableref.local"


def test_this_machine_lists_its_loopback_among_its_interfaces() -> None:
    assert "127.0.0.1" in interface_addresses()


def test_the_page_printed_and_in_the_qr_code_is_the_lan_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(commands, "lan_address", lambda: "192.168.1.20")
    store = MatchStore.open(tmp_path / "tableref.sqlite")
    service = TableService(store, SimulatedPanel(2), default_mat(), 2)
    server = commands.serve_page(service, TableConfig(host="0.0.0.0", port=0))
    try:
        printed = capsys.readouterr().out
        assert printed.startswith(f"tableref page: http://192.168.1.20:{server.port}/")
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/qr.svg") as qr:
            assert f"http://192.168.1.20:{server.port}/".encode() in qr.read()
    finally:
        server.stop()
        store.close()


def test_the_hotspot_is_up_when_networkmanager_lists_its_connection_active() -> None:
    asked: list[list[str]] = []

    def nmcli(output: str | None) -> Callable[[Sequence[str]], str | None]:
        def run(command: Sequence[str]) -> str | None:
            asked.append(list(command))
            return output
        return run

    assert hotspot_running(nmcli("preconfigured\ntableref-hotspot\nlo\n"))
    assert asked == [["nmcli", "--terse", "--fields", "NAME", "connection", "show", "--active"]]
    assert not hotspot_running(nmcli("Room Wi-Fi\nlo\n"))  # the room's Wi-Fi: no hotspot
    assert not hotspot_running(nmcli(None))  # no NetworkManager, or it failed


def test_networkmanager_is_asked_at_most_every_half_minute_and_only_with_a_hotspot() -> None:
    now, looks = [0.0], []

    def running() -> bool:
        looks.append(now[0])
        return len(looks) == 1

    watch = HotspotWatch("Table 7", "cards-on-the-table", running, lambda: now[0])
    assert watch() == ("Table 7", "cards-on-the-table")
    now[0] = HOTSPOT_RECHECK_S - 1
    assert watch() == ("Table 7", "cards-on-the-table") and looks == [0.0]
    now[0] = HOTSPOT_RECHECK_S
    assert watch() is None and looks == [0.0, HOTSPOT_RECHECK_S]  # joined a known Wi-Fi
    assert HotspotWatch(None, None, running)() is None and len(looks) == 2


def test_while_the_hotspot_runs_the_printout_and_the_page_join_its_wifi_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(commands, "lan_address", lambda: "10.42.0.1")
    run: list[Sequence[str]] = []

    def nmcli(command: Sequence[str]) -> str:
        run.append(command)
        return "tableref-hotspot\n"

    monkeypatch.setattr("firmware.network.command_output", nmcli)
    store = MatchStore.open(tmp_path / "tableref.sqlite")
    service = TableService(store, SimulatedPanel(2), default_mat(), 2)
    config = TableConfig(host="0.0.0.0", port=0, hotspot_ssid="Table 7",
                         hotspot_password="cards-on-the-table")
    server = commands.serve_page(service, config)
    try:
        printed = capsys.readouterr().out.splitlines()
        assert run == [ACTIVE_CONNECTIONS]
        assert printed[0].startswith("tableref hotspot: phones join the Wi-Fi 'Table 7' "
                                     "(password 'cards-on-the-table'; the page's first QR "
                                     "code: WIFI:T:WPA;S:Table 7;P:cards-on-the-table;;)")
        assert printed[1].startswith(f"tableref page: http://10.42.0.1:{server.port}/")
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/wifi.svg") as wifi:
            assert wifi.read() == qr_svg("WIFI:T:WPA;S:Table 7;P:cards-on-the-table;;")
    finally:
        server.stop()
        store.close()
