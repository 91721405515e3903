"""Joining: the QR code of the page's LAN address, drawn server-side as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from typing import Any

from flask import Flask

from webui.joining import qr_svg

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
