"""Setup and corrections behind the admin PIN: the first-run page that sets the PIN,
login and logout, and the actions that change the match (start, end, undo, accept a
flagged play, name an unknown card, enter a move the camera cannot see).

Every action is a POST carrying the session's CSRF token (checked for the whole app in
`webui.app`), needs a session opened with the PIN, and reads its form strictly
(`webui.forms`) before the table is asked anything; the table's own refusals
(`ControlError`) are shown the same way. PIN tries are limited per phone.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webui import forms
from webui.context import control, site
from webui.i18n import current
from webui.options import form_options
from webui.responses import done
from webui.security import (
    Label,
    Refused,
    admin_required,
    client,
    end_admin_session,
    is_admin,
    start_admin_session,
)

bp = Blueprint("admin", __name__, url_prefix="/admin")


@bp.get("")
def panel() -> str:
    """First run: set the PIN; else log in; else the admin panel."""
    table = control()
    if not table.pin_is_set():
        return render_template("admin/first_run.html")
    if not is_admin():
        return render_template("admin/login.html")
    snapshot = table.snapshot()
    return render_template("admin/panel.html", snapshot=snapshot,
                           names={int(s["seat"]): s.get("name") or "" for s in
                                  snapshot.get("seats") or []})


@bp.post("/pin")
def set_pin() -> BaseResponse:
    """Set the first PIN (anyone, once), or change it (an admin who types the old one)."""
    table = control()
    if table.pin_is_set():
        if not is_admin():
            raise Refused(403, "error.not_admin")
        check_pin(request.form.get("old") or "")
    pin = forms.new_pin(request.form)
    table.set_pin(pin)
    start_admin_session()
    return done("done.pin", "admin.panel")


@bp.post("/login")
def login() -> BaseResponse:
    if not control().pin_is_set():
        raise Refused(400, "error.no_pin")
    check_pin(request.form.get("pin") or "")
    start_admin_session()
    return done("done.login", "admin.panel")


@bp.post("/logout")
def logout() -> BaseResponse:
    end_admin_session()
    flash(current().say("done.logout"))
    return redirect(url_for("live.page"), code=303)


def check_pin(pin: str) -> None:
    """Refuse unless `pin` is the PIN; a locked-out phone is refused even a right one."""
    limiter = site().pin_failures
    who = client()
    wait = limiter.wait(who)
    if wait > 0:
        raise Refused(429, "error.pin_wait", seconds=max(1, round(wait)))
    if not control().check_pin(pin):
        left = limiter.failed(who)
        if left == 0:
            raise Refused(429, "error.pin_locked", seconds=max(1, round(limiter.wait(who))))
        raise Refused(403, "error.pin_wrong", left=left)
    limiter.succeeded(who)


@bp.get("/new")
@admin_required
def new_match() -> str:
    """Pick a game, then the seats, who starts and the house options."""
    games = control().games()
    chosen = next((g for g in games if g.get("name") == request.args.get("game")), None)
    options = form_options(chosen, current()) if chosen else None
    return render_template("admin/new_match.html", games=games, game=chosen, options=options)


@bp.post("/start")
@admin_required
def start() -> BaseResponse:
    header = forms.start_header(request.form, control().games())
    control().start_match(header)
    return done("done.start", "admin.panel")


@bp.get("/end")
@admin_required
def confirm_end() -> str:
    """Ask before ending: the scores it ends with, and a way back (no script needed)."""
    snapshot = control().snapshot()
    if snapshot.get("status") != "playing":
        raise Refused(400, "error.not_playing")
    return render_template("admin/end_confirm.html", snapshot=snapshot)


@bp.post("/end")
@admin_required
def end() -> BaseResponse:
    control().end_match()
    return done("done.end", "admin.panel")


@bp.post("/undo")
@admin_required
def undo() -> BaseResponse:
    # The button named the move it takes back: refuse if another one is last by now.
    verdicts = control().snapshot().get("verdicts") or []
    if "index" in request.form:
        last = verdicts[-1]["index"] if verdicts else -1
        if forms.whole(request.form, "index", Label("field.move"), 0, 10**9) != last:
            raise Refused(400, "error.undo_moved")
    control().undo()
    return done("done.undo", "admin.panel")


@bp.post("/accept")
@admin_required
def accept() -> BaseResponse:
    index = forms.flagged_index(request.form, control().snapshot())
    control().accept(index)
    return done("done.accept", "admin.panel")


@bp.post("/card")
@admin_required
def card() -> BaseResponse:
    snapshot = control().snapshot()
    number, code = forms.unknown_card(request.form, snapshot.get("unknown") or [],
                                      snapshot.get("codes") or [])
    control().correct_card(number, code)
    return done("done.card", "admin.panel")


@bp.post("/move")
@admin_required
def page_move() -> BaseResponse:
    snapshot = control().snapshot()
    seat, kind, answers = forms.page_move(request.form, snapshot.get("page_moves") or [],
                                          snapshot.get("seats") or [])
    control().page_move(seat, kind, answers)
    return done("done.move", "admin.panel")

