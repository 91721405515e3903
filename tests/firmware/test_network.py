"""The address phones are given (printout and QR code) is one they can reach."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from firmware import commands
from firmware.config import TableConfig
from firmware.network import interface_addresses, lan_address
from firmware.service import TableService
from firmware.store import MatchStore
from hardware.panel import SimulatedPanel
from vision.mat import default_mat


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
