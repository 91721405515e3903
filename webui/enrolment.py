"""Enrolling the table's own deck from the admin page (behind the PIN): the faces to lay
out drawn as their grid on the mat, the camera's crops shown back to confirm or rename,
the progress, and at the end the faces the camera will confuse.

The page only asks the table (`TableControl`'s enrolment methods); the camera's frames
reach the enrolment through the live loop. Every action is a POST with the CSRF token.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from webui.context import control
from webui.responses import done
from webui.security import Refused, admin_required

bp = Blueprint("enrolment", __name__, url_prefix="/admin/enrol")
REFRESH_S = 2  # how often the page looks again while the camera waits for the cards


@bp.get("")
@admin_required
def page() -> str:
    table = control()
    return render_template("admin/enrol.html", enrolment=table.enrolment(), games=table.games(),
                           refresh=REFRESH_S)


@bp.post("/start")
@admin_required
def start() -> BaseResponse:
    game = request.form.get("game") or ""
    if game not in {str(g["name"]) for g in control().games()}:
        raise Refused(400, "error.choice", field="game")
    control().start_enrolment(game, request.form.get("second_pass") == "on")
    return done("done.enrol_start", "enrolment.page")


@bp.post("/answer")
@admin_required
def answer() -> BaseResponse:
    status = control().enrolment()
    if status is None:
        raise Refused(409, "error.no_enrolment")
    codes = set(status["codes"])
    names: dict[int, str] = {}
    for crop in status["crops"]:
        name = request.form.get(f"crop-{crop['n']}") or crop["name"]
        if name not in codes:
            raise Refused(400, "error.choice", field=f"crop {crop['n']}")
        names[int(crop["n"])] = name
    control().answer_enrolment(names, keep=request.form.get("keep") == "1")
    return done("done.enrol_answer", "enrolment.page")


@bp.post("/again")
@admin_required
def again() -> BaseResponse:
    if control().enrolment() is None:
        raise Refused(409, "error.no_enrolment")
    control().look_again_enrolment()
    return done("done.enrol_again", "enrolment.page")


@bp.post("/stop")
@admin_required
def stop() -> BaseResponse:
    control().stop_enrolment()
    return done("done.enrol_stop", "enrolment.page")


@bp.get("/crop/<int:number>")
@admin_required
def crop(number: int) -> Response:
    png = control().enrolment_crop(number)
    if png is None:
        raise Refused(404, "error.http_404")
    return Response(png, mimetype="image/png", headers={"Cache-Control": "no-store"})
