"""Joining the table: the page's address as a QR code, drawn server-side as SVG.

Firmware sets `PUBLIC_URL` (the Pi's LAN address and port) when it starts; without
it the code shows the address the phone itself used to reach the page. Where the Pi
runs its own hotspot, firmware's `HOTSPOT` (called: (SSID, password) while it is up,
else None) adds a first code that joins its Wi-Fi.
"""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, abort, current_app, request

bp = Blueprint("joining", __name__)


def public_url() -> str:
    """The address other phones should open."""
    configured = current_app.config.get("PUBLIC_URL")
    url = str(configured) if configured else request.host_url
    return url if url.endswith("/") else url + "/"


def hotspot() -> tuple[str, str] | None:
    """(SSID, password) of the Pi's own Wi-Fi while phones must join it first, else None."""
    watch = current_app.config.get("HOTSPOT")
    found = watch() if callable(watch) else None
    return (str(found[0]), str(found[1])) if found else None


def wifi_qr_text(ssid: str, password: str) -> str:
    """The standard Wi-Fi QR code's text (`WIFI:T:WPA;S:<ssid>;P:<password>;;`), which a
    phone's camera offers to join; backslash, ;, :, , and " are escaped in both."""
    def escaped(text: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in text)

    return f"WIFI:T:WPA;S:{escaped(ssid)};P:{escaped(password)};;"


def qr_svg(text: str) -> bytes:
    """`text` (an address) as a QR code (SVG, black on white, medium error correction)."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff",
              xmldecl=False, svgns=True, title=text)
    return out.getvalue()


@bp.get("/qr.svg")
def qr() -> Response:
    return svg_response(qr_svg(public_url()))


@bp.get("/wifi.svg")
def wifi() -> Response:
    """The code that joins the Pi's hotspot; 404 while there is none to join."""
    joining = hotspot()
    if joining is None:
        abort(404)
    return svg_response(qr_svg(wifi_qr_text(*joining)))


def svg_response(svg: bytes) -> Response:
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
