"""Joining the table: the page's address as a QR code, drawn server-side as SVG.

Firmware sets `PUBLIC_URL` (the Pi's LAN address and port) when it starts; without
it the code shows the address the phone itself used to reach the page.
"""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, current_app, request

bp = Blueprint("joining", __name__)


def public_url() -> str:
    """The address other phones should open."""
    configured = current_app.config.get("PUBLIC_URL")
    url = str(configured) if configured else request.host_url
    return url if url.endswith("/") else url + "/"


def qr_svg(url: str) -> bytes:
    """`url` as a QR code (SVG, black on white, medium error correction)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff",
              xmldecl=False, svgns=True, title=url)
    return out.getvalue()


@bp.get("/qr.svg")
def qr() -> Response:
    response = Response(qr_svg(public_url()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
