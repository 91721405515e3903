"""Joining: the QR code of the page's LAN address, drawn server-side as SVG, and where the
Pi runs its own hotspot, a first one that joins its Wi-Fi."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from typing import Any

from flask import Flask

from webui.joining import qr_svg, wifi_qr_text

SVG = "{http://www.w3.org/2000/svg}"


def test_the_qr_code_is_an_svg_of_the_public_url(phone: Any) -> None:
    response = phone.get("/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(response.data)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "http://192.168.1.20:8000/"  # type: ignore[union-attr]
    assert response.data == qr_svg("http://192.168.1.20:8000/")


def test_without_a_public_url_the_code_has_the_address_the_phone_used(
    table: Any, make_app: Callable[..., Flask]
) -> None:
    client = make_app(table, PUBLIC_URL=None).test_client()
    response = client.get("/qr.svg", base_url="http://10.0.0.5:8000")
    assert response.data == qr_svg("http://10.0.0.5:8000/")
    page = client.get("/", base_url="http://10.0.0.5:8000").get_data(as_text=True)
    assert 'id="join-url" href="http://10.0.0.5:8000/"' in page


def test_the_page_shows_the_address_beside_the_code(phone: Any) -> None:
    page = phone.page("/")
    assert 'id="join-url" href="http://192.168.1.20:8000/">http://192.168.1.20:8000/</a>' in page
    assert 'alt="QR code for http://192.168.1.20:8000/"' in page


def test_a_public_url_without_a_trailing_slash_gets_one(
    table: Any, make_app: Callable[..., Flask]
) -> None:
    client = make_app(table, PUBLIC_URL="http://tableref.local:8000").test_client()
    assert client.get("/qr.svg").data == qr_svg("http://tableref.local:8000/")


def test_different_addresses_give_different_codes() -> None:
    assert qr_svg("http://192.168.1.20:8000/") != qr_svg("http://192.168.1.21:8000/")


def test_the_wifi_code_has_the_standard_form_with_its_specials_escaped() -> None:
    assert wifi_qr_text("Table 7", "cards-on-the-table") == \
        "WIFI:T:WPA;S:Table 7;P:cards-on-the-table;;"
    assert wifi_qr_text('a;b,c:"d"\\', "p;w") == 'WIFI:T:WPA;S:a\\;b\\,c\\:\\"d\\"\\\\;P:p\\;w;;'


def test_while_the_pi_runs_its_hotspot_the_first_code_joins_its_wifi(
    table: Any, make_app: Callable[..., Flask]
) -> None:
    client = make_app(table, HOTSPOT=lambda: ("Table 7", "cards-on-the-table")).test_client()
    page = client.get("/").get_data(as_text=True)
    wifi = page.index('id="join-wifi-qr" class="qr" src="/wifi.svg"')
    assert "Wi-Fi Table 7 (password cards-on-the-table)" in page
    assert wifi < page.index('id="join-qr"')  # then the page's own address
    response = client.get("/wifi.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.data == qr_svg("WIFI:T:WPA;S:Table 7;P:cards-on-the-table;;")


def test_without_a_hotspot_up_there_is_no_wifi_code(
    table: Any, make_app: Callable[..., Flask], phone: Any
) -> None:
    assert "join-wifi" not in phone.page("/")
    assert phone.get("/wifi.svg").status_code == 404
    client = make_app(table, HOTSPOT=lambda: None).test_client()
    assert "join-wifi" not in client.get("/").get_data(as_text=True)
    assert client.get("/wifi.svg").status_code == 404
